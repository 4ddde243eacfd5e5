! mpi_info_constants - the constants of mpi_infof.h as a module, which
! the mpi_info and mpi_info_f08 modules take them from. (mpi_info_f08
! cannot use mpi_info itself: its type MPI_Info would clash with that
! module's name, Fortran names being case-insensitive.)
module mpi_info_constants
   implicit none
   include 'mpi_infof.h'
end module mpi_info_constants
