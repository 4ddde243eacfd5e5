! mpi_infof.h - the MPI info object (MPI_INFO_*) for Fortran, the
! include-file style:      INCLUDE 'mpi_infof.h'
!
! Every constant of mpi_info.h, with the same value, as an INTEGER
! PARAMETER. Handles are INTEGERs, the same numbers as in C. Each
! routine is a subroutine ending in INTEGER IERROR, which receives
! MPI_SUCCESS or the error class the C function returns; none is a
! function, so none is declared EXTERNAL (mpif.h declares only the
! routines that return a value). Linker names: mpi_info_set_, ...
! and pmpi_info_set_, ... (gfortran, flang). See docs/fortran.md.
!
! Fixed and free source form both accept this file: statements
! start in column 7, no line is longer than 72 columns, and every
! comment line starts with ! in column 1.
!
! Buffer sizes. A key has at most MPI_MAX_INFO_KEY - 1 characters,
! a value at most MPI_MAX_INFO_VAL - 1, a message at most
! MPI_MAX_ERROR_STRING - 1 (the C sizes count a terminating NUL).
      INTEGER MPI_MAX_INFO_KEY
      PARAMETER (MPI_MAX_INFO_KEY = 256)
      INTEGER MPI_MAX_INFO_VAL
      PARAMETER (MPI_MAX_INFO_VAL = 1024)
      INTEGER MPI_MAX_ERROR_STRING
      PARAMETER (MPI_MAX_ERROR_STRING = 512)
      INTEGER MPI_THREAD_MULTIPLE
      PARAMETER (MPI_THREAD_MULTIPLE = 4096)
! Error classes.
      INTEGER MPI_SUCCESS
      PARAMETER (MPI_SUCCESS = 0)
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
      INTEGER MPI_ERR_NO_MEM
      PARAMETER (MPI_ERR_NO_MEM = 39)
! Handles.
      INTEGER MPI_INFO_NULL
      PARAMETER (MPI_INFO_NULL = 304)
      INTEGER MPI_INFO_ENV
      PARAMETER (MPI_INFO_ENV = 305)
