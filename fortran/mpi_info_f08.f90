! mpi_info_f08 - the MPI info object for Fortran, the `use mpi_f08`
! style: TYPE(MPI_Info) handles, the named constants MPI_INFO_NULL and
! MPI_INFO_ENV of that type, == and /= on handles, and the procedures
! with the standard's mpi_f08 interfaces (argument names, INTENTs,
! CHARACTER(LEN=*) strings, default LOGICAL flags, OPTIONAL ierror).
!
! Each generic name (MPI_Info_set) has one specific procedure with the
! standard's specific name (MPI_Info_set_f08), an external procedure
! whose linker name is the one the compiler gives an external
! procedure of that name (gfortran and flang: mpi_info_set_f08_), and
! a PMPI_ twin (PMPI_Info_set, PMPI_Info_set_f08, pmpi_info_set_f08_).
! The procedures are in mpi_info_f08_mpi.f90 and mpi_info_f08_pmpi.f90
! (libmpi_info_f08.a); the integer constants come from mpi_infof.h
! through the mpi_info_constants module. See docs/fortran.md.
module mpi_info_f08
   use mpi_info_constants, info_null => MPI_INFO_NULL, &
      info_env => MPI_INFO_ENV
   implicit none
   private :: info_null, info_env

   ! An info handle: the same integer as in C and the old-style
   ! bindings (MPI_Info_c2f and MPI_Info_f2c are the identity).
   ! Declared as the standard declares it; a default INTEGER is a C
   ! int here (gfortran warns that it may not be: -Wno-c-binding-type).
   type, bind(C) :: MPI_Info
      integer :: MPI_VAL
   end type MPI_Info

   type(MPI_Info), parameter :: MPI_INFO_NULL = MPI_Info(info_null)
   type(MPI_Info), parameter :: MPI_INFO_ENV = MPI_Info(info_env)

   interface operator(==)
      module procedure info_eq
   end interface
   interface operator(/=)
      module procedure info_ne
   end interface
   private :: info_eq, info_ne

   ! One interface per procedure, shared by its MPI_ and PMPI_ names.
   abstract interface
      subroutine info_create(info, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(out) :: info
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_set(info, key, value, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         character(len=*), intent(in) :: key, value
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_delete(info, key, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         character(len=*), intent(in) :: key
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_get(info, key, valuelen, value, flag, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         character(len=*), intent(in) :: key
         integer, intent(in) :: valuelen
         character(len=valuelen), intent(out) :: value
         logical, intent(out) :: flag
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_get_valuelen(info, key, valuelen, flag, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         character(len=*), intent(in) :: key
         integer, intent(out) :: valuelen
         logical, intent(out) :: flag
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_get_string(info, key, buflen, value, flag, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         character(len=*), intent(in) :: key
         integer, intent(inout) :: buflen
         character(len=*), intent(out) :: value
         logical, intent(out) :: flag
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_get_nkeys(info, nkeys, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         integer, intent(out) :: nkeys
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_get_nthkey(info, n, key, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         integer, intent(in) :: n
         character(len=*), intent(out) :: key
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_dup(info, newinfo, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(in) :: info
         type(MPI_Info), intent(out) :: newinfo
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine info_free(info, ierror)
         import :: MPI_Info
         type(MPI_Info), intent(inout) :: info
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine error_string(errorcode, string, resultlen, ierror)
         import :: MPI_MAX_ERROR_STRING
         integer, intent(in) :: errorcode
         character(len=MPI_MAX_ERROR_STRING), intent(out) :: string
         integer, intent(out) :: resultlen
         integer, optional, intent(out) :: ierror
      end subroutine
      subroutine error_class(errorcode, errorclass, ierror)
         integer, intent(in) :: errorcode
         integer, intent(out) :: errorclass
         integer, optional, intent(out) :: ierror
      end subroutine
   end interface
   private :: info_create, info_set, info_delete, info_get, &
      info_get_valuelen, info_get_string, info_get_nkeys, &
      info_get_nthkey, info_dup, info_free, error_string, error_class

   procedure(info_create) :: MPI_Info_create_f08, PMPI_Info_create_f08
   procedure(info_set) :: MPI_Info_set_f08, PMPI_Info_set_f08
   procedure(info_delete) :: MPI_Info_delete_f08, PMPI_Info_delete_f08
   procedure(info_get) :: MPI_Info_get_f08, PMPI_Info_get_f08
   procedure(info_get_valuelen) :: MPI_Info_get_valuelen_f08, &
      PMPI_Info_get_valuelen_f08
   procedure(info_get_string) :: MPI_Info_get_string_f08, &
      PMPI_Info_get_string_f08
   procedure(info_get_nkeys) :: MPI_Info_get_nkeys_f08, &
      PMPI_Info_get_nkeys_f08
   procedure(info_get_nthkey) :: MPI_Info_get_nthkey_f08, &
      PMPI_Info_get_nthkey_f08
   procedure(info_dup) :: MPI_Info_dup_f08, PMPI_Info_dup_f08
   procedure(info_free) :: MPI_Info_free_f08, PMPI_Info_free_f08
   procedure(info_create) :: MPI_Info_create_env_f08, &
      PMPI_Info_create_env_f08
   procedure(error_string) :: MPI_Error_string_f08, &
      PMPI_Error_string_f08
   procedure(error_class) :: MPI_Error_class_f08, PMPI_Error_class_f08

   interface MPI_Info_create
      procedure :: MPI_Info_create_f08
   end interface
   interface PMPI_Info_create
      procedure :: PMPI_Info_create_f08
   end interface
   interface MPI_Info_set
      procedure :: MPI_Info_set_f08
   end interface
   interface PMPI_Info_set
      procedure :: PMPI_Info_set_f08
   end interface
   interface MPI_Info_delete
      procedure :: MPI_Info_delete_f08
   end interface
   interface PMPI_Info_delete
      procedure :: PMPI_Info_delete_f08
   end interface
   interface MPI_Info_get
      procedure :: MPI_Info_get_f08
   end interface
   interface PMPI_Info_get
      procedure :: PMPI_Info_get_f08
   end interface
   interface MPI_Info_get_valuelen
      procedure :: MPI_Info_get_valuelen_f08
   end interface
   interface PMPI_Info_get_valuelen
      procedure :: PMPI_Info_get_valuelen_f08
   end interface
   interface MPI_Info_get_string
      procedure :: MPI_Info_get_string_f08
   end interface
   interface PMPI_Info_get_string
      procedure :: PMPI_Info_get_string_f08
   end interface
   interface MPI_Info_get_nkeys
      procedure :: MPI_Info_get_nkeys_f08
   end interface
   interface PMPI_Info_get_nkeys
      procedure :: PMPI_Info_get_nkeys_f08
   end interface
   interface MPI_Info_get_nthkey
      procedure :: MPI_Info_get_nthkey_f08
   end interface
   interface PMPI_Info_get_nthkey
      procedure :: PMPI_Info_get_nthkey_f08
   end interface
   interface MPI_Info_dup
      procedure :: MPI_Info_dup_f08
   end interface
   interface PMPI_Info_dup
      procedure :: PMPI_Info_dup_f08
   end interface
   interface MPI_Info_free
      procedure :: MPI_Info_free_f08
   end interface
   interface PMPI_Info_free
      procedure :: PMPI_Info_free_f08
   end interface
   interface MPI_Info_create_env
      procedure :: MPI_Info_create_env_f08
   end interface
   interface PMPI_Info_create_env
      procedure :: PMPI_Info_create_env_f08
   end interface
   interface MPI_Error_string
      procedure :: MPI_Error_string_f08
   end interface
   interface PMPI_Error_string
      procedure :: PMPI_Error_string_f08
   end interface
   interface MPI_Error_class
      procedure :: MPI_Error_class_f08
   end interface
   interface PMPI_Error_class
      procedure :: PMPI_Error_class_f08
   end interface

contains

   elemental logical function info_eq(lhs, rhs)
      type(MPI_Info), intent(in) :: lhs, rhs
      info_eq = lhs%MPI_VAL == rhs%MPI_VAL
   end function

   elemental logical function info_ne(lhs, rhs)
      type(MPI_Info), intent(in) :: lhs, rhs
      info_ne = lhs%MPI_VAL /= rhs%MPI_VAL
   end function
end module mpi_info_f08
