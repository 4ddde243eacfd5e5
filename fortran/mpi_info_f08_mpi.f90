! The mpi_info_f08 procedures' plain names: MPI_Info_create_f08, ...
! (linker names mpi_info_create_f08_, ... with gfortran and flang).
! Each only calls its PMPI_ twin (mpi_info_f08_pmpi.f90), so that a
! profiling tool can replace it and call the PMPI_ name itself. An
! absent ierror stays absent in the call.

subroutine MPI_Info_create_f08(info, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_create
   implicit none
   type(MPI_Info), intent(out) :: info
   integer, optional, intent(out) :: ierror
   call PMPI_Info_create(info, ierror)
end subroutine

subroutine MPI_Info_set_f08(info, key, value, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_set
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key, value
   integer, optional, intent(out) :: ierror
   call PMPI_Info_set(info, key, value, ierror)
end subroutine

subroutine MPI_Info_delete_f08(info, key, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_delete
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, optional, intent(out) :: ierror
   call PMPI_Info_delete(info, key, ierror)
end subroutine

subroutine MPI_Info_get_f08(info, key, valuelen, value, flag, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_get
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, intent(in) :: valuelen
   character(len=valuelen), intent(out) :: value
   logical, intent(out) :: flag
   integer, optional, intent(out) :: ierror
   call PMPI_Info_get(info, key, valuelen, value, flag, ierror)
end subroutine

subroutine MPI_Info_get_valuelen_f08(info, key, valuelen, flag, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_get_valuelen
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, intent(out) :: valuelen
   logical, intent(out) :: flag
   integer, optional, intent(out) :: ierror
   call PMPI_Info_get_valuelen(info, key, valuelen, flag, ierror)
end subroutine

subroutine MPI_Info_get_string_f08(info, key, buflen, value, flag, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_get_string
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, intent(inout) :: buflen
   character(len=*), intent(out) :: value
   logical, intent(out) :: flag
   integer, optional, intent(out) :: ierror
   call PMPI_Info_get_string(info, key, buflen, value, flag, ierror)
end subroutine

subroutine MPI_Info_get_nkeys_f08(info, nkeys, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_get_nkeys
   implicit none
   type(MPI_Info), intent(in) :: info
   integer, intent(out) :: nkeys
   integer, optional, intent(out) :: ierror
   call PMPI_Info_get_nkeys(info, nkeys, ierror)
end subroutine

subroutine MPI_Info_get_nthkey_f08(info, n, key, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_get_nthkey
   implicit none
   type(MPI_Info), intent(in) :: info
   integer, intent(in) :: n
   character(len=*), intent(out) :: key
   integer, optional, intent(out) :: ierror
   call PMPI_Info_get_nthkey(info, n, key, ierror)
end subroutine

subroutine MPI_Info_dup_f08(info, newinfo, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_dup
   implicit none
   type(MPI_Info), intent(in) :: info
   type(MPI_Info), intent(out) :: newinfo
   integer, optional, intent(out) :: ierror
   call PMPI_Info_dup(info, newinfo, ierror)
end subroutine

subroutine MPI_Info_free_f08(info, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_free
   implicit none
   type(MPI_Info), intent(inout) :: info
   integer, optional, intent(out) :: ierror
   call PMPI_Info_free(info, ierror)
end subroutine

subroutine MPI_Info_create_env_f08(info, ierror)
   use mpi_info_f08, only: MPI_Info, PMPI_Info_create_env
   implicit none
   type(MPI_Info), intent(out) :: info
   integer, optional, intent(out) :: ierror
   call PMPI_Info_create_env(info, ierror)
end subroutine

subroutine MPI_Error_string_f08(errorcode, string, resultlen, ierror)
   use mpi_info_f08, only: MPI_MAX_ERROR_STRING, PMPI_Error_string
   implicit none
   integer, intent(in) :: errorcode
   character(len=MPI_MAX_ERROR_STRING), intent(out) :: string
   integer, intent(out) :: resultlen
   integer, optional, intent(out) :: ierror
   call PMPI_Error_string(errorcode, string, resultlen, ierror)
end subroutine

subroutine MPI_Error_class_f08(errorcode, errorclass, ierror)
   use mpi_info_f08, only: PMPI_Error_class
   implicit none
   integer, intent(in) :: errorcode
   integer, intent(out) :: errorclass
   integer, optional, intent(out) :: ierror
   call PMPI_Error_class(errorcode, errorclass, ierror)
end subroutine
