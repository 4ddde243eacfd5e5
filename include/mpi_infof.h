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
! For a program with no other MPI. Beside a host MPI's mpif.h, which
! declares the names shared with MPI (the first two groups below),
! include mpi_infof_own.h after it instead, and mpi_infof_mpi2.h
! before that if the mpif.h is MPI-1's: Fortran has no way to skip a
! name declared already (docs/embedding.md, Fortran).
!
! Fixed and free source form both accept this file: statements
! start in column 7, no line is longer than 72 columns, and every
! comment line starts with ! in column 1.
!
! Buffer sizes. A message has at most MPI_MAX_ERROR_STRING - 1
! characters, a key at most MPI_MAX_INFO_KEY - 1, a value at most
! MPI_MAX_INFO_VAL - 1 (the C sizes count a terminating NUL).
!
! Names shared with MPI: those every mpif.h declares (MPI-1 on).
      INTEGER MPI_MAX_ERROR_STRING
      PARAMETER (MPI_MAX_ERROR_STRING = 512)
      INTEGER MPI_SUCCESS
      PARAMETER (MPI_SUCCESS = 0)
      INTEGER MPI_ERR_ARG
      PARAMETER (MPI_ERR_ARG = 13)
      INTEGER MPI_ERR_OTHER
      PARAMETER (MPI_ERR_OTHER = 16)
      INTEGER MPI_ERR_INTERN
      PARAMETER (MPI_ERR_INTERN = 17)
! Names shared with MPI that every mpif.h of MPI-2 or later declares.
      INCLUDE 'mpi_infof_mpi2.h'
! The info object's own names.
      INCLUDE 'mpi_infof_own.h'
