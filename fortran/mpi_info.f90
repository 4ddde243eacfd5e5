! mpi_info - the MPI info object for Fortran, the `use mpi` style: the
! constants of mpi_infof.h (INTEGER handles, the same numbers as in C)
! and explicit interfaces for the old-style routines and their PMPI_
! twins, so that a wrong argument count or type fails at compile time.
!
! The routines are the library's own (linker names mpi_info_set_, ...,
! pmpi_info_set_, ...): this module holds no code, only what the
! compiler needs to check calls, and a program that uses it links
! with -lmpi_info alone. The constants come from mpi_infof.h through
! the mpi_info_constants module. Dummy argument names are the standard's;
! INTENTs are those of its mpi_f08 bindings, except INOUT for the
! outputs the standard says a successful call may leave unchanged
! (VALUE of MPI_INFO_GET and MPI_INFO_GET_STRING, VALUELEN of
! MPI_INFO_GET_VALUELEN), so that the compiler keeps what they held.
! See docs/fortran.md for each routine's behaviour.
module mpi_info
   use mpi_info_constants
   implicit none

   ! One interface per routine, shared by its MPI_ and PMPI_ names.
   abstract interface
      subroutine info_create(INFO, IERROR)
         integer, intent(out) :: INFO, IERROR
      end subroutine
      subroutine info_set(INFO, KEY, VALUE, IERROR)
         integer, intent(in) :: INFO
         character(len=*), intent(in) :: KEY, VALUE
         integer, intent(out) :: IERROR
      end subroutine
      subroutine info_delete(INFO, KEY, IERROR)
         integer, intent(in) :: INFO
         character(len=*), intent(in) :: KEY
         integer, intent(out) :: IERROR
      end subroutine
      subroutine info_get(INFO, KEY, VALUELEN, VALUE, FLAG, IERROR)
         integer, intent(in) :: INFO, VALUELEN
         character(len=*), intent(in) :: KEY
         character(len=*), intent(inout) :: VALUE
         logical, intent(out) :: FLAG
         integer, intent(out) :: IERROR
      end subroutine
      subroutine info_get_valuelen(INFO, KEY, VALUELEN, FLAG, IERROR)
         integer, intent(in) :: INFO
         character(len=*), intent(in) :: KEY
         integer, intent(inout) :: VALUELEN
         logical, intent(out) :: FLAG
         integer, intent(out) :: IERROR
      end subroutine
      subroutine info_get_string(INFO, KEY, BUFLEN, VALUE, FLAG, IERROR)
         integer, intent(in) :: INFO
         character(len=*), intent(in) :: KEY
         integer, intent(inout) :: BUFLEN
         character(len=*), intent(inout) :: VALUE
         logical, intent(out) :: FLAG
         integer, intent(out) :: IERROR
      end subroutine
      subroutine info_get_nkeys(INFO, NKEYS, IERROR)
         integer, intent(in) :: INFO
         integer, intent(out) :: NKEYS, IERROR
      end subroutine
      subroutine info_get_nthkey(INFO, N, KEY, IERROR)
         integer, intent(in) :: INFO, N
         character(len=*), intent(out) :: KEY
         integer, intent(out) :: IERROR
      end subroutine
      subroutine info_dup(INFO, NEWINFO, IERROR)
         integer, intent(in) :: INFO
         integer, intent(out) :: NEWINFO, IERROR
      end subroutine
      subroutine info_free(INFO, IERROR)
         integer, intent(inout) :: INFO
         integer, intent(out) :: IERROR
      end subroutine
      subroutine error_string(ERRORCODE, STRING, RESULTLEN, IERROR)
         integer, intent(in) :: ERRORCODE
         character(len=*), intent(out) :: STRING
         integer, intent(out) :: RESULTLEN, IERROR
      end subroutine
      subroutine error_class(ERRORCODE, ERRORCLASS, IERROR)
         integer, intent(in) :: ERRORCODE
         integer, intent(out) :: ERRORCLASS, IERROR
      end subroutine
   end interface
   private :: info_create, info_set, info_delete, info_get, &
      info_get_valuelen, info_get_string, info_get_nkeys, &
      info_get_nthkey, info_dup, info_free, error_string, error_class

   procedure(info_create) :: MPI_INFO_CREATE, PMPI_INFO_CREATE
   procedure(info_set) :: MPI_INFO_SET, PMPI_INFO_SET
   procedure(info_delete) :: MPI_INFO_DELETE, PMPI_INFO_DELETE
   procedure(info_get) :: MPI_INFO_GET, PMPI_INFO_GET
   procedure(info_get_valuelen) :: MPI_INFO_GET_VALUELEN, &
      PMPI_INFO_GET_VALUELEN
   procedure(info_get_string) :: MPI_INFO_GET_STRING, &
      PMPI_INFO_GET_STRING
   procedure(info_get_nkeys) :: MPI_INFO_GET_NKEYS, PMPI_INFO_GET_NKEYS
   procedure(info_get_nthkey) :: MPI_INFO_GET_NTHKEY, &
      PMPI_INFO_GET_NTHKEY
   procedure(info_dup) :: MPI_INFO_DUP, PMPI_INFO_DUP
   procedure(info_free) :: MPI_INFO_FREE, PMPI_INFO_FREE
   procedure(info_create) :: MPI_INFO_CREATE_ENV, PMPI_INFO_CREATE_ENV
   procedure(error_string) :: MPI_ERROR_STRING, PMPI_ERROR_STRING
   procedure(error_class) :: MPI_ERROR_CLASS, PMPI_ERROR_CLASS
end module mpi_info
