! f_pmpi.f90 - the profiling interface from Fortran: with the tool of f_pmpi_tool.f90 linked
! ahead of the libraries, calls of the replaced names reach the tool (and still work, errors
! included), calls of the PMPI_ names and of the names the tool leaves alone do not, and the
! styles are apart: an mpi_info_f08 call does not pass through the old-style names.
program f_pmpi
   use fcheck
   use pmpi_counts
   implicit none
   call check(old_sets == 0 .and. old_gets == 0 .and. f08_sets == 0 .and. f08_creates == 0, &
      'nothing counted before the first call')
   call old_style()
   call f08_style()
   call check_report('f_pmpi')
end program f_pmpi

subroutine old_style()
   use fcheck
   use pmpi_counts
   implicit none
   include 'mpi_infof.h'
   integer :: info, ierr, nkeys
   logical :: flag
   character(len=8) :: value
   call MPI_INFO_CREATE(info, ierr)
   call MPI_INFO_SET(info, 'k', 'v', ierr)
   call check(ierr == MPI_SUCCESS .and. old_sets == 1, 'MPI_INFO_SET reaches the tool')
   value = '########'
   call MPI_INFO_GET(info, 'k', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == 'v' .and. old_gets == 1, &
      'MPI_INFO_GET reaches the tool and works')
   call PMPI_INFO_SET(info, 'k2', 'v2', ierr)
   call PMPI_INFO_GET(info, 'k2', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. value == 'v2' .and. old_sets == 1 .and. &
      old_gets == 1, 'PMPI_ calls do not reach the tool')
   call MPI_INFO_SET(MPI_INFO_ENV, 'k', 'v', ierr)
   call check(ierr == MPI_ERR_INFO .and. old_sets == 2, 'an error passes through the tool')
   call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
   call check(ierr == MPI_SUCCESS .and. nkeys == 2, 'a routine the tool leaves alone works')
   call check(f08_sets == 0 .and. f08_creates == 0, 'old-style calls are not f08 calls')
   call MPI_INFO_FREE(info, ierr)
end subroutine

subroutine f08_style()
   use mpi_info_f08
   use fcheck
   use pmpi_counts
   implicit none
   type(MPI_Info) :: info
   integer :: ierr, nkeys
   logical :: flag
   character(len=8) :: value
   call MPI_Info_create(info, ierr)
   call check(ierr == MPI_SUCCESS .and. f08_creates == 1, 'MPI_Info_create reaches the tool')
   call MPI_Info_set(info, 'a', 'b', ierr)
   call check(ierr == MPI_SUCCESS .and. f08_sets == 1, 'MPI_Info_set reaches the tool')
   call check(old_sets == 2, 'an mpi_info_f08 call does not pass through MPI_INFO_SET')
   call MPI_Info_set(info, 'c', 'd')
   call check(f08_sets == 2, 'without ierror too')
   call PMPI_Info_set(info, 'e', 'f', ierr)
   call check(ierr == MPI_SUCCESS .and. f08_sets == 2, 'PMPI_Info_set does not reach it')
   call MPI_Info_get(info, 'e', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == 'f' .and. old_gets == 1, &
      'MPI_Info_get, left alone, works and does not pass through MPI_INFO_GET')
   call MPI_Info_set(MPI_INFO_NULL, 'a', 'b', ierr)
   call check(ierr == MPI_ERR_INFO .and. f08_sets == 3, 'an error passes through the tool')
   call MPI_Info_get_nkeys(info, nkeys, ierr)
   call check(ierr == MPI_SUCCESS .and. nkeys == 3, 'the pairs set through the tool are there')
   call MPI_Info_free(info, ierr)
   call check(ierr == MPI_SUCCESS .and. info == MPI_INFO_NULL, 'free')
end subroutine
