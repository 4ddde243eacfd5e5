! f_strings.f90 - the Fortran string rules, through the old-style routines (include file):
! - input keys and values lose their leading and trailing blanks before the C rules apply,
!   in every routine that takes one; an all-blank key is MPI_ERR_INFO_KEY; the limits apply
!   to the stripped text (key 255 / 256, value 1023 / 1024); inner blanks are kept;
! - a string is read within its declared length (a substring of a longer buffer);
! - every string output is blank-padded to its declared length and nothing past it is
!   written; MPI_INFO_GET truncates to VALUELEN (characters offered) and to the declared
!   length; MPI_INFO_GET_STRING follows the standard's Fortran BUFLEN rule.
program f_strings
   use fcheck
   use fsupport, only: dump
   implicit none
   include 'mpi_infof.h'
   integer :: info, ierr, vlen, buflen, nkeys, rlen
   logical :: flag
   character(len=300) :: key
   character(len=1100) :: value
   character(len=12) :: buf
   character(len=:), allocatable :: snap
   integer :: n
   type :: get_case
      integer :: valuelen, declared
      character(len=12) :: buffer
      character(len=60) :: what
   end type
   type(get_case), parameter :: cases(6) = [ &
      get_case(10, 10, 'abcdefghij##', 'VALUELEN = length = declared length: the whole value'), &
      get_case(4, 8, 'abcd    ####', 'truncated to VALUELEN, padded to the declared length'), &
      get_case(100, 6, 'abcdef######', 'truncated to the declared length'), &
      get_case(3, 5, 'abc  #######', 'both shorter than the value, VALUELEN smaller'), &
      get_case(5, 3, 'abc#########', 'both shorter than the value, declared length smaller'), &
      get_case(12, 12, 'abcdefghij  ', 'a longer buffer is blank-padded')]

   call MPI_INFO_CREATE(info, ierr)

   ! ---- stripping in MPI_INFO_SET: key and value, leading, trailing, both ----------------
   call MPI_INFO_SET(info, '   lead', 'v1', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'set, key with leading blanks')
   call MPI_INFO_SET(info, 'trail   ', 'v2', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'set, key with trailing blanks')
   call MPI_INFO_SET(info, '  both  ', '   v3', ierr)
   call MPI_INFO_SET(info, 'k4', 'v4    ', ierr)
   call MPI_INFO_SET(info, 'k5', '  hello   wide world  ', ierr)
   call MPI_INFO_SET(info, 'k6', '      ', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'set, all-blank value')
   call check_same(dump(info), 'n=6|lead=v1|trail=v2|both=v3|k4=v4|k5=hello   wide world|k6=', &
      'keys and values stored stripped, inner blanks kept, all-blank value empty')
   ! A key given with other blanks around it is the same key.
   call MPI_INFO_SET(info, ' lead ', 'v1 again', ierr)
   call check_same(dump(info), 'n=6|lead=v1 again|trail=v2|both=v3|k4=v4|' // &
      'k5=hello   wide world|k6=', 'set of the same key with other blanks replaces it')

   ! ---- stripping in every routine that takes a key ---------------------------------------
   value = repeat('#', len(value))
   call MPI_INFO_GET(info, '  both ', 10, value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag, 'get, key with blanks on both sides')
   call check_same(value, padded('v3', len(value)), 'get: the value')
   call MPI_INFO_GET(info, 'trail', 10, value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == 'v2', 'get, key stripped at set')
   vlen = -7
   call MPI_INFO_GET_VALUELEN(info, '  k5', vlen, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. vlen == 18, &
      'get_valuelen, key with leading blanks: the stripped value''s length')
   call MPI_INFO_GET_VALUELEN(info, 'k6  ', vlen, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. vlen == 0, 'get_valuelen of the empty value')
   buflen = 5
   value = repeat('#', len(value))
   call MPI_INFO_GET_STRING(info, 'k4   ', buflen, value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. buflen == 2, 'get_string, trailing blanks')
   call check_same(value, padded('v4', len(value)), 'get_string: the value')
   call MPI_INFO_DELETE(info, '   k4   ', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'delete, key with blanks on both sides')
   call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
   call check(nkeys == 5, 'delete removed it')

   ! ---- all-blank and empty keys are MPI_ERR_INFO_KEY everywhere ---------------------------
   snap = dump(info)
   call MPI_INFO_SET(info, '    ', 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'set, all-blank key')
   call MPI_INFO_SET(info, '', 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'set, empty key')
   flag = .true.
   call MPI_INFO_GET(info, '   ', 10, value, flag, ierr)
   call check(ierr == MPI_ERR_INFO_KEY .and. flag, 'get, all-blank key; flag untouched')
   call MPI_INFO_GET_VALUELEN(info, ' ', vlen, flag, ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'get_valuelen, all-blank key')
   buflen = 10
   call MPI_INFO_GET_STRING(info, '  ', buflen, value, flag, ierr)
   call check(ierr == MPI_ERR_INFO_KEY .and. buflen == 10, 'get_string, all-blank key')
   call MPI_INFO_DELETE(info, '      ', ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'delete, all-blank key')
   call check_same(dump(info), snap, 'bad keys changed nothing')

   ! ---- the limits apply to the stripped text ----------------------------------------------
   key = '  ' // repeat('k', 255)
   call MPI_INFO_SET(info, key, '  255  ', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'key of 255 characters after stripping')
   key = repeat('#', len(key))
   call MPI_INFO_GET_NTHKEY(info, 5, key(1:256), ierr)
   call check_same(key(1:256), repeat('k', 255) // ' ', 'nthkey: the 255-character key, padded')
   call check(key(257:) == repeat('#', len(key) - 256), 'nthkey wrote nothing past 256')
   key = ' ' // repeat('k', 256) // ' '
   call MPI_INFO_SET(info, key, 'v', ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'key of 256 characters after stripping')
   call MPI_INFO_GET_VALUELEN(info, key, vlen, flag, ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'get_valuelen, key of 256')
   value = '   ' // repeat('v', 1023)
   call MPI_INFO_SET(info, 'long', value, ierr)
   call check_rc(ierr, MPI_SUCCESS, 'value of 1023 characters after stripping')
   call MPI_INFO_GET_VALUELEN(info, 'long', vlen, flag, ierr)
   call check(flag .and. vlen == 1023, 'the 1023-character value is whole')
   value = ' ' // repeat('v', 1024)
   snap = dump(info)
   call MPI_INFO_SET(info, 'long', value, ierr)
   call check_rc(ierr, MPI_ERR_INFO_VALUE, 'value of 1024 characters after stripping')
   call check_same(dump(info), snap, 'the too-long value changed nothing')
   call MPI_INFO_DELETE(info, 'long', ierr)
   call MPI_INFO_DELETE(info, repeat('k', 255), ierr)

   ! ---- only blanks are stripped; a NUL is never part of a key or value --------------------
   call MPI_INFO_SET(info, char(9) // 'tab', 'x', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'a tab is not stripped')
   call MPI_INFO_GET_VALUELEN(info, 'tab', vlen, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. .not. flag, 'the key with a tab is not "tab"')
   call MPI_INFO_DELETE(info, char(9) // 'tab', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'delete the key with a tab')
   call MPI_INFO_SET(info, 'a' // char(0) // 'b', 'x', ierr)
   call check_rc(ierr, MPI_ERR_INFO_KEY, 'a key with a NUL')
   call MPI_INFO_SET(info, 'nul', 'x' // char(0), ierr)
   call check_rc(ierr, MPI_ERR_INFO_VALUE, 'a value with a NUL')

   ! ---- strings are read within their declared length --------------------------------------
   buf = 'key1XYZvalue'
   call MPI_INFO_SET(info, buf(1:4), buf(8:12), ierr)
   call check_rc(ierr, MPI_SUCCESS, 'set from substrings')
   call MPI_INFO_GET_VALUELEN(info, 'key1', vlen, flag, ierr)
   call check(flag .and. vlen == 5, 'the substrings, not the buffer')
   value = repeat('#', len(value))
   call MPI_INFO_GET(info, buf(1:4), 20, value, flag, ierr)
   call check(flag .and. value == 'value', 'get with a substring key')

   ! ---- MPI_INFO_GET: VALUELEN counts characters; padding; nothing past the declared length -
   ! Each case: VALUELEN, the declared length (a substring of the 12-character buffer), and
   ! the whole buffer afterwards.
   call MPI_INFO_SET(info, 'ten', 'abcdefghij', ierr)
   do n = 1, size(cases)
      buf = repeat('#', len(buf))
      flag = .false.
      call MPI_INFO_GET(info, 'ten', cases(n)%valuelen, buf(1:cases(n)%declared), flag, ierr)
      call check(ierr == MPI_SUCCESS .and. flag, 'get: ' // trim(cases(n)%what))
      call check_same(buf, cases(n)%buffer, 'get: ' // trim(cases(n)%what))
   end do
   buf = repeat('#', len(buf))
   flag = .false.
   call MPI_INFO_GET(info, 'ten', 0, buf(1:4), flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag, 'VALUELEN 0 finds the key')
   call check_same(buf, '    ########', 'VALUELEN 0: no character, blanks to the declared length')
   buf = repeat('#', len(buf))
   call MPI_INFO_GET(info, 'k6', 5, buf(1:5), flag, ierr)
   call check(flag, 'the empty value is found')
   call check_same(buf, '     #######', 'the empty value: all blanks')

   ! ---- MPI_INFO_GET_STRING: the standard's Fortran BUFLEN rule ----------------------------
   ! BUFLEN on input is the number of characters VALUE offers; on return, the value's length
   ! (no terminator in Fortran); BUFLEN 0 leaves VALUE unchanged.
   buf = repeat('#', len(buf))
   buflen = 4
   call MPI_INFO_GET_STRING(info, 'ten', buflen, buf(1:8), flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. buflen == 10, 'get_string: buflen = 10')
   call check_same(buf, 'abcd    ####', 'get_string: truncated to BUFLEN, padded')
   buf = repeat('#', len(buf))
   buflen = 10
   call MPI_INFO_GET_STRING(info, 'ten', buflen, buf(1:10), flag, ierr)
   call check(buflen == 10, 'get_string: BUFLEN = length: whole value, buflen 10')
   call check_same(buf, 'abcdefghij##', 'get_string: the whole value in exactly its length')
   buf = repeat('#', len(buf))
   buflen = 50
   call MPI_INFO_GET_STRING(info, 'ten', buflen, buf(1:7), flag, ierr)
   call check(buflen == 10, 'get_string: BUFLEN larger than the declared length')
   call check_same(buf, 'abcdefg#####', 'get_string: cut to the declared length')
   buf = repeat('#', len(buf))
   buflen = 0
   flag = .false.
   call MPI_INFO_GET_STRING(info, 'ten', buflen, buf, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. buflen == 10, 'get_string: BUFLEN 0 asks')
   call check_same(buf, repeat('#', 12), 'get_string: BUFLEN 0 leaves VALUE unchanged')
   buflen = 5
   flag = .true.
   call MPI_INFO_GET_STRING(info, 'missing', buflen, buf, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. .not. flag .and. buflen == 5, &
      'get_string of a missing key: BUFLEN untouched')
   call check_same(buf, repeat('#', 12), 'get_string of a missing key: VALUE untouched')
   buflen = -1
   call MPI_INFO_GET_STRING(info, 'ten', buflen, buf, flag, ierr)
   call check(ierr == MPI_ERR_ARG .and. buflen == -1, 'get_string: negative BUFLEN')
   call check_same(buf, repeat('#', 12), 'get_string: negative BUFLEN writes nothing')

   ! ---- nthkey and error_string: padded, cut to the declared length -----------------------
   buf = repeat('#', len(buf))
   call MPI_INFO_GET_NTHKEY(info, 0, buf(1:9), ierr)
   call check_same(buf, 'lead     ###', 'nthkey: padded to the declared length')
   call MPI_INFO_SET(info, 'a_rather_long_key', 'v', ierr)
   call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
   buf = repeat('#', len(buf))
   call MPI_INFO_GET_NTHKEY(info, nkeys - 1, buf(1:6), ierr)
   call check(ierr == MPI_SUCCESS, 'nthkey into a short buffer succeeds')
   call check_same(buf, 'a_rath######', 'nthkey: cut to the declared length')
   buf = repeat('#', len(buf))
   rlen = -7
   call MPI_ERROR_STRING(MPI_SUCCESS, buf(1:11), rlen, ierr)
   call check(ierr == MPI_SUCCESS .and. rlen == 11, 'error_string: resultlen counts what fits')
   call check_same(buf, 'MPI_SUCCESS#', 'error_string: cut to the declared length')

   call MPI_INFO_FREE(info, ierr)
   deallocate (snap)
   call check_report('f_strings')
end program f_strings
