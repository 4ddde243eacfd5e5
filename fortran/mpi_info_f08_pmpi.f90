! The mpi_info_f08 procedures' work: PMPI_Info_create_f08, ... Each
! calls the library's old-style routine of the same name (pmpi_info_*_,
! docs/fortran.md), declared here with ISO_C_BINDING: the handle, the
! integers and IERROR by reference, a CHARACTER(LEN=*) string as a
! character array with its length passed explicitly after all other
! arguments (integer(c_size_t), value), in argument order. This is the
! same call a compiler makes to an old-style routine, written out, so
! this layer does not depend on one compiler's hidden-length
! convention. The old-style routine checks every argument, writes no
! output on error and returns the class in its IERROR; here a LOGICAL
! flag is set from it only on success, and ierror only if present.
! Linker names: pmpi_info_create_f08_, ... (gfortran, flang).

subroutine PMPI_Info_create_f08(info, ierror)
   use, intrinsic :: iso_c_binding, only: c_int
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(out) :: info
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_create(info, ierror) bind(C, name='pmpi_info_create_')
         import :: c_int
         integer(c_int) :: info
         integer(c_int), intent(out) :: ierror
      end subroutine
   end interface
   integer(c_int) :: code
   call info_create(info%MPI_VAL, code)
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_set_f08(info, key, value, ierror)
   use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key, value
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_set(info, key, value, ierror, key_len, value_len) &
            bind(C, name='pmpi_info_set_')
         import :: c_int, c_char, c_size_t
         integer(c_int), intent(in) :: info
         character(kind=c_char), intent(in) :: key(*), value(*)
         integer(c_int), intent(out) :: ierror
         integer(c_size_t), value :: key_len, value_len
      end subroutine
   end interface
   integer(c_int) :: code
   call info_set(info%MPI_VAL, key, value, code, len(key, c_size_t), &
      len(value, c_size_t))
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_delete_f08(info, key, ierror)
   use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_delete(info, key, ierror, key_len) &
            bind(C, name='pmpi_info_delete_')
         import :: c_int, c_char, c_size_t
         integer(c_int), intent(in) :: info
         character(kind=c_char), intent(in) :: key(*)
         integer(c_int), intent(out) :: ierror
         integer(c_size_t), value :: key_len
      end subroutine
   end interface
   integer(c_int) :: code
   call info_delete(info%MPI_VAL, key, code, len(key, c_size_t))
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_get_f08(info, key, valuelen, value, flag, ierror)
   use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
   use mpi_info_f08, only: MPI_Info, MPI_SUCCESS
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, intent(in) :: valuelen
   character(len=valuelen), intent(out) :: value
   logical, intent(out) :: flag
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_get(info, key, valuelen, value, flag, ierror, &
            key_len, value_len) bind(C, name='pmpi_info_get_')
         import :: c_int, c_char, c_size_t
         integer(c_int), intent(in) :: info, valuelen
         character(kind=c_char), intent(in) :: key(*)
         character(kind=c_char) :: value(*)
         integer(c_int) :: flag
         integer(c_int), intent(out) :: ierror
         integer(c_size_t), value :: key_len, value_len
      end subroutine
   end interface
   integer(c_int) :: code, found
   call info_get(info%MPI_VAL, key, valuelen, value, found, code, &
      len(key, c_size_t), len(value, c_size_t))
   if (code == MPI_SUCCESS) flag = found /= 0
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_get_valuelen_f08(info, key, valuelen, flag, ierror)
   use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
   use mpi_info_f08, only: MPI_Info, MPI_SUCCESS
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, intent(out) :: valuelen
   logical, intent(out) :: flag
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_get_valuelen(info, key, valuelen, flag, ierror, &
            key_len) bind(C, name='pmpi_info_get_valuelen_')
         import :: c_int, c_char, c_size_t
         integer(c_int), intent(in) :: info
         character(kind=c_char), intent(in) :: key(*)
         integer(c_int) :: valuelen, flag
         integer(c_int), intent(out) :: ierror
         integer(c_size_t), value :: key_len
      end subroutine
   end interface
   integer(c_int) :: code, found
   call info_get_valuelen(info%MPI_VAL, key, valuelen, found, code, &
      len(key, c_size_t))
   if (code == MPI_SUCCESS) flag = found /= 0
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_get_string_f08(info, key, buflen, value, flag, ierror)
   use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
   use mpi_info_f08, only: MPI_Info, MPI_SUCCESS
   implicit none
   type(MPI_Info), intent(in) :: info
   character(len=*), intent(in) :: key
   integer, intent(inout) :: buflen
   character(len=*), intent(out) :: value
   logical, intent(out) :: flag
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_get_string(info, key, buflen, value, flag, ierror, &
            key_len, value_len) bind(C, name='pmpi_info_get_string_')
         import :: c_int, c_char, c_size_t
         integer(c_int), intent(in) :: info
         character(kind=c_char), intent(in) :: key(*)
         integer(c_int), intent(inout) :: buflen
         character(kind=c_char) :: value(*)
         integer(c_int) :: flag
         integer(c_int), intent(out) :: ierror
         integer(c_size_t), value :: key_len, value_len
      end subroutine
   end interface
   integer(c_int) :: code, found
   call info_get_string(info%MPI_VAL, key, buflen, value, found, code, &
      len(key, c_size_t), len(value, c_size_t))
   if (code == MPI_SUCCESS) flag = found /= 0
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_get_nkeys_f08(info, nkeys, ierror)
   use, intrinsic :: iso_c_binding, only: c_int
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(in) :: info
   integer, intent(out) :: nkeys
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_get_nkeys(info, nkeys, ierror) &
            bind(C, name='pmpi_info_get_nkeys_')
         import :: c_int
         integer(c_int), intent(in) :: info
         integer(c_int) :: nkeys
         integer(c_int), intent(out) :: ierror
      end subroutine
   end interface
   integer(c_int) :: code
   call info_get_nkeys(info%MPI_VAL, nkeys, code)
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_get_nthkey_f08(info, n, key, ierror)
   use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(in) :: info
   integer, intent(in) :: n
   character(len=*), intent(out) :: key
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_get_nthkey(info, n, key, ierror, key_len) &
            bind(C, name='pmpi_info_get_nthkey_')
         import :: c_int, c_char, c_size_t
         integer(c_int), intent(in) :: info, n
         character(kind=c_char) :: key(*)
         integer(c_int), intent(out) :: ierror
         integer(c_size_t), value :: key_len
      end subroutine
   end interface
   integer(c_int) :: code
   call info_get_nthkey(info%MPI_VAL, n, key, code, len(key, c_size_t))
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_dup_f08(info, newinfo, ierror)
   use, intrinsic :: iso_c_binding, only: c_int
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(in) :: info
   type(MPI_Info), intent(out) :: newinfo
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_dup(info, newinfo, ierror) &
            bind(C, name='pmpi_info_dup_')
         import :: c_int
         integer(c_int), intent(in) :: info
         integer(c_int) :: newinfo
         integer(c_int), intent(out) :: ierror
      end subroutine
   end interface
   integer(c_int) :: code
   call info_dup(info%MPI_VAL, newinfo%MPI_VAL, code)
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_free_f08(info, ierror)
   use, intrinsic :: iso_c_binding, only: c_int
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(inout) :: info
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_free(info, ierror) bind(C, name='pmpi_info_free_')
         import :: c_int
         integer(c_int), intent(inout) :: info
         integer(c_int), intent(out) :: ierror
      end subroutine
   end interface
   integer(c_int) :: code
   call info_free(info%MPI_VAL, code)
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Info_create_env_f08(info, ierror)
   use, intrinsic :: iso_c_binding, only: c_int
   use mpi_info_f08, only: MPI_Info
   implicit none
   type(MPI_Info), intent(out) :: info
   integer, optional, intent(out) :: ierror
   interface
      subroutine info_create_env(info, ierror) &
            bind(C, name='pmpi_info_create_env_')
         import :: c_int
         integer(c_int) :: info
         integer(c_int), intent(out) :: ierror
      end subroutine
   end interface
   integer(c_int) :: code
   call info_create_env(info%MPI_VAL, code)
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Error_string_f08(errorcode, string, resultlen, ierror)
   use, intrinsic :: iso_c_binding, only: c_int, c_char, c_size_t
   use mpi_info_f08, only: MPI_MAX_ERROR_STRING
   implicit none
   integer, intent(in) :: errorcode
   character(len=MPI_MAX_ERROR_STRING), intent(out) :: string
   integer, intent(out) :: resultlen
   integer, optional, intent(out) :: ierror
   interface
      subroutine error_string(errorcode, string, resultlen, ierror, &
            string_len) bind(C, name='pmpi_error_string_')
         import :: c_int, c_char, c_size_t
         integer(c_int), intent(in) :: errorcode
         character(kind=c_char) :: string(*)
         integer(c_int) :: resultlen
         integer(c_int), intent(out) :: ierror
         integer(c_size_t), value :: string_len
      end subroutine
   end interface
   integer(c_int) :: code
   call error_string(errorcode, string, resultlen, code, &
      len(string, c_size_t))
   if (present(ierror)) ierror = code
end subroutine

subroutine PMPI_Error_class_f08(errorcode, errorclass, ierror)
   use, intrinsic :: iso_c_binding, only: c_int
   implicit none
   integer, intent(in) :: errorcode
   integer, intent(out) :: errorclass
   integer, optional, intent(out) :: ierror
   interface
      subroutine error_class(errorcode, errorclass, ierror) &
            bind(C, name='pmpi_error_class_')
         import :: c_int
         integer(c_int), intent(in) :: errorcode
         integer(c_int) :: errorclass
         integer(c_int), intent(out) :: ierror
      end subroutine
   end interface
   integer(c_int) :: code
   call error_class(errorcode, errorclass, code)
   if (present(ierror)) ierror = code
end subroutine
