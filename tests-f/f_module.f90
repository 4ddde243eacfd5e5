! f_module.f90 - the `use mpi_info` style: every routine and every PMPI_ twin with exact
! results through the module's explicit interfaces (exercise_old.inc, with dummy procedures
! of those interfaces, run once with the MPI_ names and once with the PMPI_ names), the
! module's constants, and keyword arguments with the standard's names. The outputs the module
! declares INOUT (VALUE of get and get_string, VALUELEN of get_valuelen) are checked to be
! kept when a successful call leaves them (missing key, BUFLEN 0).
program f_module
   use mpi_info
   use fcheck
   use fsupport, only: dump
   implicit none
   integer :: info, ierr, vlen, buflen, nkeys, rlen, errclass
   logical :: flag
   character(len=16) :: value
   character(len=MPI_MAX_INFO_KEY) :: key
   character(len=MPI_MAX_ERROR_STRING) :: message

   call check(MPI_INFO_NULL == 304 .and. MPI_INFO_ENV == 305 .and. MPI_ERR_INFO == 34 .and. &
      MPI_MAX_INFO_KEY == 256 .and. MPI_MAX_INFO_VAL == 1024, 'the module''s constants')

   call exercise('', MPI_INFO_CREATE, MPI_INFO_SET, MPI_INFO_DELETE, MPI_INFO_GET, &
      MPI_INFO_GET_VALUELEN, MPI_INFO_GET_STRING, MPI_INFO_GET_NKEYS, MPI_INFO_GET_NTHKEY, &
      MPI_INFO_DUP, MPI_INFO_FREE, MPI_INFO_CREATE_ENV, MPI_ERROR_STRING, MPI_ERROR_CLASS)
   call exercise('PMPI_: ', PMPI_INFO_CREATE, PMPI_INFO_SET, PMPI_INFO_DELETE, PMPI_INFO_GET, &
      PMPI_INFO_GET_VALUELEN, PMPI_INFO_GET_STRING, PMPI_INFO_GET_NKEYS, &
      PMPI_INFO_GET_NTHKEY, PMPI_INFO_DUP, PMPI_INFO_FREE, PMPI_INFO_CREATE_ENV, &
      PMPI_ERROR_STRING, PMPI_ERROR_CLASS)

   ! ---- keyword arguments with the standard's names --------------------------------------
   call MPI_INFO_CREATE(INFO=info, IERROR=ierr)
   call check_rc(ierr, MPI_SUCCESS, 'create, keywords')
   call MPI_INFO_SET(INFO=info, KEY=' access_style ', VALUE='read_once', IERROR=ierr)
   call check_rc(ierr, MPI_SUCCESS, 'set, keywords')
   call MPI_INFO_GET(INFO=info, KEY='access_style', VALUELEN=len(value), VALUE=value, &
      FLAG=flag, IERROR=ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == 'read_once', 'get, keywords')
   call MPI_INFO_GET_VALUELEN(INFO=info, KEY='access_style', VALUELEN=vlen, FLAG=flag, &
      IERROR=ierr)
   call check(ierr == MPI_SUCCESS .and. vlen == 9, 'get_valuelen, keywords')
   buflen = 4
   call MPI_INFO_GET_STRING(INFO=info, KEY='access_style', BUFLEN=buflen, VALUE=value, &
      FLAG=flag, IERROR=ierr)
   call check(ierr == MPI_SUCCESS .and. buflen == 9 .and. value == 'read', 'get_string, keywords')
   call MPI_INFO_GET_NKEYS(INFO=info, NKEYS=nkeys, IERROR=ierr)
   call MPI_INFO_GET_NTHKEY(INFO=info, N=0, KEY=key, IERROR=ierr)
   call check(nkeys == 1 .and. key == 'access_style', 'get_nkeys, get_nthkey, keywords')
   call MPI_ERROR_STRING(ERRORCODE=MPI_SUCCESS, STRING=message, RESULTLEN=rlen, IERROR=ierr)
   call MPI_ERROR_CLASS(ERRORCODE=MPI_ERR_ARG, ERRORCLASS=errclass, IERROR=ierr)
   call check(rlen == 21 .and. errclass == MPI_ERR_ARG, 'error_string, error_class, keywords')
   call MPI_INFO_DELETE(INFO=info, KEY='access_style', IERROR=ierr)
   call check_rc(ierr, MPI_SUCCESS, 'delete, keywords')
   call MPI_INFO_FREE(INFO=info, IERROR=ierr)
   call check(ierr == MPI_SUCCESS .and. info == MPI_INFO_NULL, 'free, keywords')
   call check_report('f_module')

contains

   subroutine exercise(label, create, set, delete, get, get_valuelen, get_string, get_nkeys, &
         get_nthkey, dup, free, create_env, error_string, error_class)
      character(len=*), intent(in) :: label
      procedure(MPI_INFO_CREATE) :: create
      procedure(MPI_INFO_SET) :: set
      procedure(MPI_INFO_DELETE) :: delete
      procedure(MPI_INFO_GET) :: get
      procedure(MPI_INFO_GET_VALUELEN) :: get_valuelen
      procedure(MPI_INFO_GET_STRING) :: get_string
      procedure(MPI_INFO_GET_NKEYS) :: get_nkeys
      procedure(MPI_INFO_GET_NTHKEY) :: get_nthkey
      procedure(MPI_INFO_DUP) :: dup
      procedure(MPI_INFO_FREE) :: free
      procedure(MPI_INFO_CREATE_ENV) :: create_env
      procedure(MPI_ERROR_STRING) :: error_string
      procedure(MPI_ERROR_CLASS) :: error_class
      include 'exercise_old.inc'
   end subroutine
end program f_module
