! f_errors.f90 - IERROR for every bad argument a Fortran program can pass, through the
! old-style routines (include file, so no INTENT lets the compiler touch an output): the
! class the C function returns, and on error no output written (sentinels) and no object
! changed (snapshots). Bad handles: freed, forged, MPI_INFO_NULL, MPI_INFO_ENV where it would
! be changed. Then the order: the first bad argument decides, and the class never depends on
! whether the key exists.
program f_errors
   use fcheck
   use fsupport, only: dump
   implicit none
   include 'mpi_infof.h'
   integer, parameter :: SENT = -7
   integer :: info, freed, ierr, i, handle, out, vlen, buflen, nkeys
   integer :: bad(6)
   logical :: flag
   character(len=32) :: value, key, message
   character(len=:), allocatable :: snap, envsnap
   character(len=40) :: what

   call MPI_INFO_CREATE(info, ierr)
   call MPI_INFO_SET(info, 'k', 'v', ierr)
   call MPI_INFO_SET(info, 'k2', 'v2', ierr)
   call MPI_INFO_CREATE(freed, ierr)
   handle = freed
   call MPI_INFO_FREE(handle, ierr)
   snap = dump(info)
   envsnap = dump(MPI_INFO_ENV)

   ! ---- handles that name no object: MPI_ERR_INFO from every routine that takes one --------
   bad = [freed, MPI_INFO_NULL, 0, -1, 12345, huge(0)]
   do i = 1, size(bad)
      write (what, '(a,i0)') 'bad handle ', bad(i)
      ierr = SENT
      call MPI_INFO_SET(bad(i), 'k', 'v', ierr)
      call check_rc(ierr, MPI_ERR_INFO, trim(what) // ': set')
      call MPI_INFO_DELETE(bad(i), 'k', ierr)
      call check_rc(ierr, MPI_ERR_INFO, trim(what) // ': delete')
      value = repeat('#', len(value))
      flag = .true.
      call MPI_INFO_GET(bad(i), 'k', 10, value, flag, ierr)
      call check(ierr == MPI_ERR_INFO .and. flag .and. value == repeat('#', len(value)), &
         trim(what) // ': get, outputs untouched')
      vlen = SENT
      flag = .true.
      call MPI_INFO_GET_VALUELEN(bad(i), 'k', vlen, flag, ierr)
      call check(ierr == MPI_ERR_INFO .and. flag .and. vlen == SENT, &
         trim(what) // ': get_valuelen, outputs untouched')
      buflen = 10
      call MPI_INFO_GET_STRING(bad(i), 'k', buflen, value, flag, ierr)
      call check(ierr == MPI_ERR_INFO .and. flag .and. buflen == 10 .and. &
         value == repeat('#', len(value)), trim(what) // ': get_string, outputs untouched')
      nkeys = SENT
      call MPI_INFO_GET_NKEYS(bad(i), nkeys, ierr)
      call check(ierr == MPI_ERR_INFO .and. nkeys == SENT, trim(what) // ': nkeys')
      key = repeat('#', len(key))
      call MPI_INFO_GET_NTHKEY(bad(i), 0, key, ierr)
      call check(ierr == MPI_ERR_INFO .and. key == repeat('#', len(key)), &
         trim(what) // ': nthkey')
      out = SENT
      call MPI_INFO_DUP(bad(i), out, ierr)
      call check(ierr == MPI_ERR_INFO .and. out == SENT, trim(what) // ': dup')
      handle = bad(i)
      call MPI_INFO_FREE(handle, ierr)
      call check(ierr == MPI_ERR_INFO .and. handle == bad(i), trim(what) // ': free')
   end do

   ! ---- MPI_INFO_ENV: readable, not changeable --------------------------------------------
   call MPI_INFO_SET(MPI_INFO_ENV, 'k', 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'set on MPI_INFO_ENV')
   call MPI_INFO_DELETE(MPI_INFO_ENV, 'command', ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'delete on MPI_INFO_ENV')
   handle = MPI_INFO_ENV
   call MPI_INFO_FREE(handle, ierr)
   call check(ierr == MPI_ERR_INFO .and. handle == MPI_INFO_ENV, 'free of MPI_INFO_ENV')
   call check_same(dump(MPI_INFO_ENV), envsnap, 'MPI_INFO_ENV unchanged')
   call MPI_INFO_DUP(MPI_INFO_ENV, out, ierr)
   call check_rc(ierr, MPI_SUCCESS, 'dup of MPI_INFO_ENV')
   call MPI_INFO_SET(out, 'k', 'v', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'the duplicate of MPI_INFO_ENV is writable')
   call MPI_INFO_FREE(out, ierr)

   ! ---- keys, values, lengths, indices -----------------------------------------------------
   call MPI_INFO_DELETE(info, 'missing', ierr)
   call check_rc(ierr, MPI_ERR_INFO_NOKEY, 'delete of a missing key')
   key = repeat('#', len(key))
   call MPI_INFO_GET_NTHKEY(info, 2, key, ierr)
   call check(ierr == MPI_ERR_ARG .and. key == repeat('#', len(key)), 'nthkey n = nkeys')
   call MPI_INFO_GET_NTHKEY(info, -1, key, ierr)
   call check(ierr == MPI_ERR_ARG .and. key == repeat('#', len(key)), 'nthkey n = -1')
   call MPI_INFO_GET_NTHKEY(info, -huge(0) - 1, key, ierr)
   call check(ierr == MPI_ERR_ARG .and. key == repeat('#', len(key)), 'nthkey n = INT_MIN')
   value = repeat('#', len(value))
   flag = .true.
   call MPI_INFO_GET(info, 'k', -1, value, flag, ierr)
   call check(ierr == MPI_ERR_ARG .and. flag .and. value == repeat('#', len(value)), &
      'get with a negative VALUELEN')
   call MPI_INFO_SET(info, repeat('x', 256), 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'set, key too long')
   call MPI_INFO_SET(info, 'k', repeat('v', 1024), ierr)
   call check_rc(ierr, MPI_ERR_INFO_VALUE, 'set, value too long')
   call MPI_INFO_DELETE(info, repeat('x', 256), ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'delete, key too long')
   call MPI_INFO_GET(info, '  ', 10, value, flag, ierr)
   call check(ierr == MPI_ERR_INFO_KEY .and. flag .and. value == repeat('#', len(value)), &
      'get, all-blank key')

   ! ---- the first bad argument decides; the key's existence never does -------------------
   call MPI_INFO_SET(freed, '', repeat('v', 2000), ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'dead handle, bad key, bad value: MPI_ERR_INFO')
   call MPI_INFO_SET(info, '', repeat('v', 2000), ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'bad key, bad value: MPI_ERR_INFO_KEY')
   call MPI_INFO_GET(info, '   ', -1, value, flag, ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'get, bad key and negative VALUELEN')
   call MPI_INFO_GET(info, 'missing', -1, value, flag, ierr)
   call check_rc(ierr, MPI_ERR_ARG, 'get, missing key and negative VALUELEN: MPI_ERR_ARG')
   buflen = -3
   call MPI_INFO_GET_STRING(info, 'missing', buflen, value, flag, ierr)
   call check(ierr == MPI_ERR_ARG .and. buflen == -3, &
      'get_string, missing key and negative BUFLEN: MPI_ERR_ARG')
   call MPI_INFO_DELETE(freed, '', ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'delete, dead handle and bad key: MPI_ERR_INFO')
   call check_same(dump(info), snap, 'no failed call changed the object')

   ! ---- error codes -------------------------------------------------------------------------
   message = repeat('#', len(message))
   out = SENT
   call MPI_ERROR_STRING(12345, message, out, ierr)
   call check(ierr == MPI_ERR_ARG .and. out == SENT .and. message == repeat('#', len(message)), &
      'error_string of an unknown code')
   call MPI_ERROR_STRING(-1, message, out, ierr)
   call check_rc(ierr, MPI_ERR_ARG, 'error_string of -1')
   call MPI_ERROR_CLASS(12345, out, ierr)
   call check(ierr == MPI_ERR_ARG .and. out == SENT, 'error_class of an unknown code')
   do i = 0, 40
      out = SENT
      call MPI_ERROR_CLASS(i, out, ierr)
      if (ierr == MPI_SUCCESS) then
         call check(out == i, 'error_class of a known code is the code')
      else
         call check(ierr == MPI_ERR_ARG .and. out == SENT, 'error_class of an unknown code')
      end if
   end do

   call MPI_INFO_FREE(info, ierr)
   deallocate (snap, envsnap)
   call check_report('f_errors')
end program f_errors
