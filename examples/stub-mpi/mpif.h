! mpif.h - stub-mpi for Fortran, the include-file style:
!       INCLUDE 'mpif.h'
!
! The Fortran side of mpi.h: its names as INTEGER PARAMETERs, with
! the same values, and at the end the info part, mpi-info's
! mpi_infof_own.h (MPI_INFO_NULL, MPI_INFO_ENV, MPI_MAX_INFO_KEY,
! MPI_MAX_INFO_VAL). The names every mpif.h shares with mpi_infof.h
! (MPI_SUCCESS, the error classes, MPI_MAX_ERROR_STRING,
! MPI_THREAD_MULTIPLE) are this file's, so it includes
! mpi_infof_own.h, never mpi_infof.h, which declares them too
! (docs/embedding.md, Fortran). The routines are in libstub_mpi
! (stub_mpi.c, "The Fortran binding"); the MPI_INFO_ ones in
! libmpi_info. Fixed and free source form both accept this file.
      INTEGER MPI_VERSION
      PARAMETER (MPI_VERSION = 5)
      INTEGER MPI_SUBVERSION
      PARAMETER (MPI_SUBVERSION = 0)
! The names shared with mpi_infof.h, and this layer's own classes.
      INTEGER MPI_SUCCESS
      PARAMETER (MPI_SUCCESS = 0)
      INTEGER MPI_ERR_BUFFER
      PARAMETER (MPI_ERR_BUFFER = 1)
      INTEGER MPI_ERR_COUNT
      PARAMETER (MPI_ERR_COUNT = 2)
      INTEGER MPI_ERR_TYPE
      PARAMETER (MPI_ERR_TYPE = 3)
      INTEGER MPI_ERR_COMM
      PARAMETER (MPI_ERR_COMM = 5)
      INTEGER MPI_ERR_ROOT
      PARAMETER (MPI_ERR_ROOT = 8)
      INTEGER MPI_ERR_ARG
      PARAMETER (MPI_ERR_ARG = 13)
      INTEGER MPI_ERR_OTHER
      PARAMETER (MPI_ERR_OTHER = 16)
      INTEGER MPI_ERR_INTERN
      PARAMETER (MPI_ERR_INTERN = 17)
      INTEGER MPI_ERR_INFO_KEY
      PARAMETER (MPI_ERR_INFO_KEY = 31)
      INTEGER MPI_ERR_INFO_NOKEY
      PARAMETER (MPI_ERR_INFO_NOKEY = 32)
      INTEGER MPI_ERR_INFO_VALUE
      PARAMETER (MPI_ERR_INFO_VALUE = 33)
      INTEGER MPI_ERR_INFO
      PARAMETER (MPI_ERR_INFO = 34)
      INTEGER MPI_ERR_IO
      PARAMETER (MPI_ERR_IO = 35)
      INTEGER MPI_ERR_NO_MEM
      PARAMETER (MPI_ERR_NO_MEM = 39)
      INTEGER MPI_MAX_ERROR_STRING
      PARAMETER (MPI_MAX_ERROR_STRING = 512)
      INTEGER MPI_THREAD_SINGLE
      PARAMETER (MPI_THREAD_SINGLE = 0)
      INTEGER MPI_THREAD_MULTIPLE
      PARAMETER (MPI_THREAD_MULTIPLE = 4096)
! Communicators and datatypes.
      INTEGER MPI_COMM_NULL
      PARAMETER (MPI_COMM_NULL = 0)
      INTEGER MPI_COMM_WORLD
      PARAMETER (MPI_COMM_WORLD = 1)
      INTEGER MPI_COMM_SELF
      PARAMETER (MPI_COMM_SELF = 2)
      INTEGER MPI_DATATYPE_NULL
      PARAMETER (MPI_DATATYPE_NULL = 0)
      INTEGER MPI_BYTE
      PARAMETER (MPI_BYTE = 1)
      INTEGER MPI_CHARACTER
      PARAMETER (MPI_CHARACTER = 2)
      INTEGER MPI_INTEGER
      PARAMETER (MPI_INTEGER = 3)
      INTEGER MPI_DOUBLE_PRECISION
      PARAMETER (MPI_DOUBLE_PRECISION = 4)
! The info part, at the end.
      INCLUDE 'mpi_infof_own.h'
