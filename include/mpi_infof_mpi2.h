! mpi_infof_mpi2.h - the names shared with MPI that MPI-2 added:
! every mpif.h of MPI-2 or later declares them, an MPI-1 one does
! not. Included by mpi_infof.h; beside an MPI-1 host's mpif.h,
! include it after that file and before mpi_infof_own.h. Never
! beside an mpif.h of MPI-2 or later. See docs/embedding.md.
!
! Fixed and free source form, as mpi_infof.h.
      INTEGER MPI_THREAD_MULTIPLE
      PARAMETER (MPI_THREAD_MULTIPLE = 4096)
! Error classes.
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
