! f_include.f90 - the include-file style (INCLUDE 'mpi_infof.h', no interfaces): the
! constants, then every routine and every PMPI_ twin with exact results (exercise_old.inc,
! run once with the MPI_ names and once with the PMPI_ names).
program f_include
   use fcheck
   use fsupport, only: dump
   implicit none
   include 'mpi_infof.h'
   external :: MPI_INFO_CREATE, MPI_INFO_SET, MPI_INFO_DELETE, MPI_INFO_GET, &
      MPI_INFO_GET_VALUELEN, MPI_INFO_GET_STRING, MPI_INFO_GET_NKEYS, MPI_INFO_GET_NTHKEY, &
      MPI_INFO_DUP, MPI_INFO_FREE, MPI_INFO_CREATE_ENV, MPI_ERROR_STRING, MPI_ERROR_CLASS
   external :: PMPI_INFO_CREATE, PMPI_INFO_SET, PMPI_INFO_DELETE, PMPI_INFO_GET, &
      PMPI_INFO_GET_VALUELEN, PMPI_INFO_GET_STRING, PMPI_INFO_GET_NKEYS, &
      PMPI_INFO_GET_NTHKEY, PMPI_INFO_DUP, PMPI_INFO_FREE, PMPI_INFO_CREATE_ENV, &
      PMPI_ERROR_STRING, PMPI_ERROR_CLASS
   character(len=MPI_MAX_INFO_KEY) :: key
   character(len=MPI_MAX_INFO_VAL) :: value

   ! ---- constants: the C header's values -------------------------------------------------
   call check(MPI_MAX_INFO_KEY == 256 .and. MPI_MAX_INFO_VAL == 1024, 'buffer sizes')
   call check(MPI_MAX_ERROR_STRING == 512 .and. MPI_THREAD_MULTIPLE == 4096, 'sizes, level')
   call check(MPI_SUCCESS == 0 .and. MPI_ERR_ARG == 13 .and. MPI_ERR_OTHER == 16 .and. &
      MPI_ERR_INTERN == 17, 'classes')
   call check(MPI_ERR_INFO_KEY == 31 .and. MPI_ERR_INFO_NOKEY == 32 .and. &
      MPI_ERR_INFO_VALUE == 33 .and. MPI_ERR_INFO == 34 .and. MPI_ERR_NO_MEM == 39, &
      'info classes')
   call check(MPI_INFO_NULL == 304 .and. MPI_INFO_ENV == 305, 'handles')
   key = ''
   value = ''
   call check(len(key) == 256 .and. len(value) == 1024, 'CHARACTER*(MPI_MAX_INFO_KEY) works')

   call exercise('', MPI_INFO_CREATE, MPI_INFO_SET, MPI_INFO_DELETE, MPI_INFO_GET, &
      MPI_INFO_GET_VALUELEN, MPI_INFO_GET_STRING, MPI_INFO_GET_NKEYS, MPI_INFO_GET_NTHKEY, &
      MPI_INFO_DUP, MPI_INFO_FREE, MPI_INFO_CREATE_ENV, MPI_ERROR_STRING, MPI_ERROR_CLASS)
   call exercise('PMPI_: ', PMPI_INFO_CREATE, PMPI_INFO_SET, PMPI_INFO_DELETE, PMPI_INFO_GET, &
      PMPI_INFO_GET_VALUELEN, PMPI_INFO_GET_STRING, PMPI_INFO_GET_NKEYS, &
      PMPI_INFO_GET_NTHKEY, PMPI_INFO_DUP, PMPI_INFO_FREE, PMPI_INFO_CREATE_ENV, &
      PMPI_ERROR_STRING, PMPI_ERROR_CLASS)
   call check_report('f_include')

contains

   subroutine exercise(label, create, set, delete, get, get_valuelen, get_string, get_nkeys, &
         get_nthkey, dup, free, create_env, error_string, error_class)
      character(len=*), intent(in) :: label
      external :: create, set, delete, get, get_valuelen, get_string, get_nkeys, get_nthkey, &
         dup, free, create_env, error_string, error_class
      include 'exercise_old.inc'
   end subroutine
end program f_include
