! f_pmpi_tool.f90 - a profiling tool written in Fortran, for tests-f/f_pmpi.f90: it replaces
! two old-style routines (MPI_INFO_SET, MPI_INFO_GET) and two mpi_info_f08 procedures
! (MPI_Info_set_f08, MPI_Info_create_f08) with its own, which count the calls and do the work
! through the PMPI_ names. Linked ahead of the libraries, as its object file, with both the
! shared and the static libmpi_info (whose plain names are weak in the archives).
module pmpi_counts
   implicit none
   integer, save :: old_sets = 0, old_gets = 0, f08_sets = 0, f08_creates = 0
end module pmpi_counts

subroutine MPI_INFO_SET(INFO, KEY, VALUE, IERROR)
   use pmpi_counts, only: old_sets
   implicit none
   integer :: INFO, IERROR
   character(len=*) :: KEY, VALUE
   old_sets = old_sets + 1
   call PMPI_INFO_SET(INFO, KEY, VALUE, IERROR)
end subroutine

subroutine MPI_INFO_GET(INFO, KEY, VALUELEN, VALUE, FLAG, IERROR)
   use pmpi_counts, only: old_gets
   implicit none
   integer :: INFO, VALUELEN, IERROR
   character(len=*) :: KEY, VALUE
   logical :: FLAG
   old_gets = old_gets + 1
   call PMPI_INFO_GET(INFO, KEY, VALUELEN, VALUE, FLAG, IERROR)
end subroutine

subroutine MPI_Info_set_f08(info, key, value, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_set
   use pmpi_counts, only: f08_sets
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key, value
   integer, optional, intent(out) :: ierror
   f08_sets = f08_sets + 1
   call PMPI_Info_set(info, key, value, ierror)
end subroutine

subroutine MPI_Info_create_f08(info, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_create
   use pmpi_counts, only: f08_creates
   implicit none
   type(MPI_Info), intent(out) :: info
   integer, optional, intent(out) :: ierror
   f08_creates = f08_creates + 1
   call PMPI_Info_create(info, ierror)
end subroutine
