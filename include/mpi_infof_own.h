! mpi_infof_own.h - the info object's own names, which a host MPI
! without an info object does not declare: the sizes of keys and
! values and the predefined handles. Included by mpi_infof.h.
!
! A host MPI's mpif.h of MPI-2 or later declares every other name of
! mpi_infof.h already, and Fortran refuses a name declared twice, so
! beside it a program (or the mpif.h itself, at its end) includes
! this file instead of mpi_infof.h:
!
!       INCLUDE 'mpif.h'
!       INCLUDE 'mpi_infof_own.h'
!
! See docs/embedding.md. Fixed and free source form, as mpi_infof.h.
      INTEGER MPI_MAX_INFO_KEY
      PARAMETER (MPI_MAX_INFO_KEY = 256)
      INTEGER MPI_MAX_INFO_VAL
      PARAMETER (MPI_MAX_INFO_VAL = 1024)
! Handles.
      INTEGER MPI_INFO_NULL
      PARAMETER (MPI_INFO_NULL = 304)
      INTEGER MPI_INFO_ENV
      PARAMETER (MPI_INFO_ENV = 305)
