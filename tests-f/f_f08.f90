! f_f08.f90 - the `use mpi_info_f08` style: TYPE(MPI_Info) and its constants, == and /=,
! every procedure and every PMPI_ twin with exact results (`exercise`, run with the MPI_
! specific procedures and then with the PMPI_ ones), the generic names with the standard's
! keyword arguments, the string rules (stripping, padding, VALUELEN as the declared length of
! value, the GET_STRING BUFLEN rule), errors reported in ierror, and ierror left out.
program f_f08
   use mpi_info_f08
   use fcheck
   use fsupport, only: dump
   implicit none
   type(MPI_Info) :: info, copy, env, handle, infos(3)
   integer :: ierr, nkeys, vlen, buflen, errclass, rlen
   logical :: flag
   character(len=MPI_MAX_INFO_KEY) :: key
   character(len=12) :: value
   character(len=MPI_MAX_ERROR_STRING) :: message

   ! ---- the type, its constants and operators ---------------------------------------------
   call check(MPI_INFO_NULL%MPI_VAL == 304 .and. MPI_INFO_ENV%MPI_VAL == 305, &
      'MPI_INFO_NULL and MPI_INFO_ENV hold the C handles')
   call check(MPI_INFO_NULL == MPI_INFO_NULL .and. MPI_INFO_NULL /= MPI_INFO_ENV, '== and /=')
   call check(.not. (MPI_INFO_NULL /= MPI_Info(304)) .and. .not. (MPI_INFO_ENV == MPI_INFO_NULL), &
      '== and /= compare MPI_VAL')
   infos = [MPI_INFO_NULL, MPI_INFO_ENV, MPI_INFO_NULL]
   call check(all((infos == MPI_INFO_NULL) .eqv. [.true., .false., .true.]), &
      '== is elemental')
   call check(storage_size(info) == storage_size(0), 'one INTEGER component')
   call check(MPI_ERR_INFO == 34 .and. MPI_MAX_INFO_VAL == 1024 .and. MPI_SUCCESS == 0, &
      'the integer constants')

   call exercise('', MPI_Info_create_f08, MPI_Info_set_f08, MPI_Info_delete_f08, &
      MPI_Info_get_f08, MPI_Info_get_valuelen_f08, MPI_Info_get_string_f08, &
      MPI_Info_get_nkeys_f08, MPI_Info_get_nthkey_f08, MPI_Info_dup_f08, MPI_Info_free_f08, &
      MPI_Info_create_env_f08, MPI_Error_string_f08, MPI_Error_class_f08)
   call exercise('PMPI_: ', PMPI_Info_create_f08, PMPI_Info_set_f08, PMPI_Info_delete_f08, &
      PMPI_Info_get_f08, PMPI_Info_get_valuelen_f08, PMPI_Info_get_string_f08, &
      PMPI_Info_get_nkeys_f08, PMPI_Info_get_nthkey_f08, PMPI_Info_dup_f08, &
      PMPI_Info_free_f08, PMPI_Info_create_env_f08, PMPI_Error_string_f08, &
      PMPI_Error_class_f08)

   ! ---- the generic names, keyword arguments with the standard's names ---------------------
   call MPI_Info_create(info=info, ierror=ierr)
   call check_rc(ierr, MPI_SUCCESS, 'MPI_Info_create with keywords')
   call MPI_Info_set(info=info, key='  striping_unit ', value=' 1048576  ', ierror=ierr)
   call check_rc(ierr, MPI_SUCCESS, 'MPI_Info_set with keywords')
   call MPI_Info_get(info=info, key='striping_unit', valuelen=len(value), value=value, &
      flag=flag, ierror=ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == '1048576', 'MPI_Info_get, keywords')
   buflen = 3
   call PMPI_Info_get_string(info=info, key='striping_unit', buflen=buflen, value=value, &
      flag=flag, ierror=ierr)
   call check(ierr == MPI_SUCCESS .and. buflen == 7 .and. value == '104', &
      'PMPI_Info_get_string, keywords')
   call MPI_Info_dup(info=info, newinfo=copy, ierror=ierr)
   call MPI_Info_free(info=copy, ierror=ierr)
   call check(ierr == MPI_SUCCESS .and. copy == MPI_INFO_NULL, 'dup and free, keywords')
   call MPI_Error_class(errorcode=MPI_ERR_ARG, errorclass=errclass, ierror=ierr)
   call check(ierr == MPI_SUCCESS .and. errclass == MPI_ERR_ARG, 'MPI_Error_class, keywords')
   call MPI_Info_dup(info, copy, ierr)
   handle = copy
   call MPI_Info_free(copy, ierr)

   ! ---- errors come back in ierror -----------------------------------------------------------
   call MPI_Info_get_nkeys(handle, nkeys, ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'a freed handle')
   call MPI_Info_set(MPI_INFO_NULL, 'k', 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'set on MPI_INFO_NULL')
   call MPI_Info_set(MPI_INFO_ENV, 'k', 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'set on MPI_INFO_ENV')
   call MPI_Info_delete(MPI_INFO_ENV, 'command', ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'delete on MPI_INFO_ENV')
   handle = MPI_INFO_ENV
   call MPI_Info_free(handle, ierr)
   call check(ierr == MPI_ERR_INFO .and. handle == MPI_INFO_ENV, 'free of MPI_INFO_ENV')
   call MPI_Info_set(info, '   ', 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'all-blank key')
   call MPI_Info_set(info, 'k', repeat('v', 1024), ierr)
   call check_rc(ierr, MPI_ERR_INFO_VALUE, 'value too long')
   call MPI_Info_delete(info, 'missing', ierr)
   call check_rc(ierr, MPI_ERR_INFO_NOKEY, 'delete of a missing key')
   call MPI_Info_get_nthkey(info, 1, key, ierr)
   call check_rc(ierr, MPI_ERR_ARG, 'nthkey past the last key')
   call MPI_Info_get(info, 'striping_unit', -1, value, flag, ierr)
   call check_rc(ierr, MPI_ERR_ARG, 'get with a negative valuelen')
   buflen = -1
   call MPI_Info_get_string(info, 'striping_unit', buflen, value, flag, ierr)
   call check(ierr == MPI_ERR_ARG .and. buflen == -1, 'get_string with a negative buflen')
   call MPI_Error_class(1000, errclass, ierr)
   call check_rc(ierr, MPI_ERR_ARG, 'error_class of an unknown code')
   call check_same(dump(info%MPI_VAL), 'n=1|striping_unit=1048576', &
      'no failed call changed the object')

   ! ---- ierror left out: the calls still work, errors are not fatal -----------------------
   call MPI_Info_create(handle)
   call check(handle%MPI_VAL >= 4096 .and. handle /= info, 'create without ierror')
   call MPI_Info_set(handle, 'a', 'b')
   call MPI_Info_set(handle, '', 'b')
   call MPI_Info_set(MPI_INFO_ENV, 'a', 'c')
   call MPI_Info_get(handle, 'a', len(value), value, flag)
   call check(flag .and. value == 'b', 'set and get without ierror')
   call MPI_Info_get_valuelen(handle, 'a', vlen, flag)
   call MPI_Info_get_nkeys(handle, nkeys)
   call check(vlen == 1 .and. nkeys == 1, 'get_valuelen and get_nkeys without ierror')
   buflen = 5
   call MPI_Info_get_string(handle, 'a', buflen, value, flag)
   call MPI_Info_get_nthkey(handle, 0, key)
   call check(buflen == 1 .and. key == 'a', 'get_string and get_nthkey without ierror')
   call MPI_Info_dup(handle, copy)
   call MPI_Info_delete(copy, 'a')
   call MPI_Info_delete(copy, 'a')
   call MPI_Info_get_nkeys(copy, nkeys)
   call check(nkeys == 0, 'dup and delete without ierror')
   call MPI_Info_free(copy)
   call check(copy == MPI_INFO_NULL, 'free without ierror')
   call MPI_Info_create_env(env)
   call MPI_Info_free(env)
   call MPI_Error_string(MPI_SUCCESS, message, rlen)
   call MPI_Error_class(MPI_SUCCESS, errclass)
   call check(rlen == 21 .and. errclass == MPI_SUCCESS, 'error routines without ierror')
   call MPI_Info_free(handle)

   call MPI_Info_free(info, ierr)
   call check_report('f_f08')

contains

   ! Every procedure, through the dummy procedures passed (the MPI_ specific procedures, then
   ! the PMPI_ ones), with exact results.
   subroutine exercise(label, create, set, delete, get, get_valuelen, get_string, get_nkeys, &
         get_nthkey, dup, free, create_env, error_string, error_class)
      character(len=*), intent(in) :: label
      procedure(MPI_Info_create_f08) :: create
      procedure(MPI_Info_set_f08) :: set
      procedure(MPI_Info_delete_f08) :: delete
      procedure(MPI_Info_get_f08) :: get
      procedure(MPI_Info_get_valuelen_f08) :: get_valuelen
      procedure(MPI_Info_get_string_f08) :: get_string
      procedure(MPI_Info_get_nkeys_f08) :: get_nkeys
      procedure(MPI_Info_get_nthkey_f08) :: get_nthkey
      procedure(MPI_Info_dup_f08) :: dup
      procedure(MPI_Info_free_f08) :: free
      procedure(MPI_Info_create_env_f08) :: create_env
      procedure(MPI_Error_string_f08) :: error_string
      procedure(MPI_Error_class_f08) :: error_class
      type(MPI_Info) :: info, copy, env, dead
      integer :: ierr, nkeys, vlen, buflen, errclass, rlen
      logical :: flag
      character(len=MPI_MAX_INFO_KEY) :: key
      character(len=12) :: value
      character(len=MPI_MAX_ERROR_STRING) :: message

      info = MPI_INFO_NULL
      call create(info, ierr)
      call check(ierr == MPI_SUCCESS .and. info%MPI_VAL >= 4096, label // 'create')
      call set(info, '  striping_unit ', ' 1048576  ', ierr)
      call check_rc(ierr, MPI_SUCCESS, label // 'set')
      call set(info, 'nb_proc', '16', ierr)
      call check_same(dump(info%MPI_VAL), 'n=2|striping_unit=1048576|nb_proc=16', &
         label // 'the pairs, stripped, as the old-style routines see them')
      call get_nkeys(info, nkeys, ierr)
      call check(ierr == MPI_SUCCESS .and. nkeys == 2, label // 'get_nkeys')
      key = repeat('#', len(key))
      call get_nthkey(info, 1, key, ierr)
      call check_rc(ierr, MPI_SUCCESS, label // 'get_nthkey')
      call check_same(key, padded('nb_proc', len(key)), label // 'get_nthkey: padded')
      value = repeat('#', len(value))
      flag = .false.
      call get(info, 'striping_unit', len(value), value, flag, ierr)
      call check(ierr == MPI_SUCCESS .and. flag, label // 'get')
      call check_same(value, padded('1048576', len(value)), label // 'get: padded')
      ! value is CHARACTER(LEN=valuelen): the first valuelen characters of the actual.
      value = repeat('#', len(value))
      call get(info, 'striping_unit', 4, value, flag, ierr)
      call check_same(value, '1048########', label // 'get: value(1:valuelen) written')
      call get(info, 'striping_unit', 9, value, flag, ierr)
      call check_same(value, '1048576  ###', label // 'get: padded to valuelen')
      call get(info, 'missing', len(value), value, flag, ierr)
      call check(ierr == MPI_SUCCESS .and. .not. flag, label // 'get of a missing key')
      call get_valuelen(info, ' nb_proc', vlen, flag, ierr)
      call check(ierr == MPI_SUCCESS .and. flag .and. vlen == 2, label // 'get_valuelen')
      call get_valuelen(info, 'missing', vlen, flag, ierr)
      call check(ierr == MPI_SUCCESS .and. .not. flag, label // 'get_valuelen, missing key')
      value = repeat('#', len(value))
      buflen = 3
      call get_string(info, 'striping_unit', buflen, value, flag, ierr)
      call check(ierr == MPI_SUCCESS .and. flag .and. buflen == 7, &
         label // 'get_string: buflen becomes the length')
      call check_same(value, padded('104', len(value)), label // 'get_string: BUFLEN characters')
      value = repeat('#', len(value))
      buflen = 0
      call get_string(info, 'striping_unit', buflen, value, flag, ierr)
      call check(ierr == MPI_SUCCESS .and. flag .and. buflen == 7, label // 'get_string, BUFLEN 0')
      call check_same(value, repeat('#', len(value)), label // 'get_string, BUFLEN 0: unchanged')
      buflen = 100
      call get_string(info, 'striping_unit', buflen, value(1:5), flag, ierr)
      call check(buflen == 7, label // 'get_string into a declared length of 5: buflen')
      call check_same(value, '10485#######', label // 'get_string into a declared length of 5')
      call delete(info, 'nb_proc ', ierr)
      call check_rc(ierr, MPI_SUCCESS, label // 'delete')
      call delete(info, 'nb_proc', ierr)
      call check_rc(ierr, MPI_ERR_INFO_NOKEY, label // 'delete of a missing key')
      call dup(info, copy, ierr)
      call check(ierr == MPI_SUCCESS .and. copy /= info, label // 'dup')
      call check_same(dump(copy%MPI_VAL), 'n=1|striping_unit=1048576', label // 'dup: the pairs')
      dead = copy
      call free(copy, ierr)
      call check(ierr == MPI_SUCCESS .and. copy == MPI_INFO_NULL, label // 'free')
      call get_nkeys(dead, nkeys, ierr)
      call check_rc(ierr, MPI_ERR_INFO, label // 'the freed handle is dead')
      call create_env(env, ierr)
      call check(ierr == MPI_SUCCESS .and. env%MPI_VAL >= 4096, label // 'create_env')
      call check_same(dump(env%MPI_VAL), dump(MPI_INFO_ENV%MPI_VAL), &
         label // 'create_env: what MPI_INFO_ENV holds')
      call free(env, ierr)
      message = repeat('#', len(message))
      call error_string(MPI_ERR_INFO_NOKEY, message, rlen, ierr)
      call check(ierr == MPI_SUCCESS .and. rlen == len_trim(message) .and. &
         message(1:19) == 'MPI_ERR_INFO_NOKEY:' .and. message(rlen+1:) == '', &
         label // 'error_string: message, resultlen, padding')
      call error_class(MPI_ERR_NO_MEM, errclass, ierr)
      call check(ierr == MPI_SUCCESS .and. errclass == MPI_ERR_NO_MEM, label // 'error_class')
      call free(info, ierr)
      call check(ierr == MPI_SUCCESS .and. info == MPI_INFO_NULL, label // 'free the object')
   end subroutine
end program f_f08
