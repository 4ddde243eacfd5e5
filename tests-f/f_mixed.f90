! f_mixed.f90 - Fortran and C in one program (C half: f_mixed_c.c). Objects made in Fortran
! (old-style and mpi_info_f08) are read in C and objects made in C are read in Fortran: the
! handles are the same integers (MPI_Info_c2f and f2c are the identity). IERROR is the class
! the C function returns for the same case, and the error strings are C's. C also calls the
! old-style routines as a compiler does, with strings at the edge of unreadable pages.
module c_side
   use, intrinsic :: iso_c_binding, only: c_int, c_char
   implicit none
   interface
      integer(c_int) function c_has(info, key, expected) bind(C)
         import :: c_int, c_char
         integer(c_int), value :: info
         character(kind=c_char), intent(in) :: key(*), expected(*)
      end function
      integer(c_int) function c_nkeys(info) bind(C)
         import :: c_int
         integer(c_int), value :: info
      end function
      integer(c_int) function c_rc_set(info, key, value) bind(C)
         import :: c_int, c_char
         integer(c_int), value :: info
         character(kind=c_char), intent(in) :: key(*), value(*)
      end function
      integer(c_int) function c_make() bind(C)
         import :: c_int
      end function
      integer(c_int) function c_roundtrip(info) bind(C)
         import :: c_int
         integer(c_int), value :: info
      end function
      integer(c_int) function c_free(info) bind(C)
         import :: c_int
         integer(c_int), intent(inout) :: info
      end function
      integer(c_int) function c_message_is(code, string, resultlen) bind(C)
         import :: c_int, c_char
         integer(c_int), value :: code, resultlen
         character(kind=c_char), intent(in) :: string(*)
      end function
      subroutine c_abi_checks(passed, failed) bind(C)
         import :: c_int
         integer(c_int), intent(out) :: passed, failed
      end subroutine
   end interface
end module c_side

program f_mixed
   use, intrinsic :: iso_c_binding, only: c_null_char
   use fcheck
   use c_side
   implicit none
   include 'mpi_infof.h'
   integer :: info, from_c, ierr, handle, rlen, i, p, f
   logical :: flag
   character(len=24) :: value
   character(len=MPI_MAX_INFO_KEY) :: key
   character(len=MPI_MAX_ERROR_STRING) :: message
   character(len=*), parameter :: z = c_null_char
   integer, parameter :: classes(10) = [MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_OTHER, &
      MPI_ERR_INTERN, MPI_ERR_INFO_KEY, MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO, &
      MPI_ERR_NO_MEM, 999]

   ! ---- made in Fortran, read in C -------------------------------------------------------------
   call MPI_INFO_CREATE(info, ierr)
   call MPI_INFO_SET(info, '  fortran key  ', '  value with  inner blanks ', ierr)
   call MPI_INFO_SET(info, 'second', 'two', ierr)
   call check(c_nkeys(info) == 2, 'C counts the pairs Fortran set')
   call check(c_has(info, 'fortran key' // z, 'value with  inner blanks' // z) == 1, &
      'C reads the stripped key and value')
   call check(c_has(info, '  fortran key  ' // z, 'value with  inner blanks' // z) == 0, &
      'C keeps blanks: the unstripped key is another key')
   call check(c_roundtrip(info) == info, 'MPI_Info_f2c and c2f are the identity')
   call check(c_rc_set(info, 'from c' // z, 'c value' // z) == MPI_SUCCESS, 'C sets a pair')
   value = repeat('#', len(value))
   call MPI_INFO_GET(info, 'from c', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == 'c value', &
      'Fortran reads what C set in its object')

   ! ---- made in C, read in Fortran -----------------------------------------------------------
   from_c = c_make()
   call check(from_c >= 4096, 'C made an object')
   value = repeat('#', len(value))
   call MPI_INFO_GET(from_c, 'c key', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag, 'Fortran finds the key C set')
   call check_same(value, padded('  kept blanks  ', len(value)), &
      'a value C set with blanks comes back with them, then padded')
   key = repeat('#', len(key))
   call MPI_INFO_GET_NTHKEY(from_c, 1, key, ierr)
   call check_same(key, padded('trailing', len(key)), &
      'a C key with a trailing blank: padded, the blank not told apart')
   call MPI_INFO_GET(from_c, 'trailing ', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. .not. flag, &
      'a C key with a trailing blank cannot be named from Fortran (blanks are stripped)')
   call f08_reads(from_c)
   call MPI_INFO_FREE(from_c, ierr)
   call check(ierr == MPI_SUCCESS .and. from_c == MPI_INFO_NULL, 'Fortran frees C''s object')

   ! ---- freed on one side, dead on the other -----------------------------------------------
   handle = info
   call check(c_free(handle) == MPI_SUCCESS .and. handle == MPI_INFO_NULL, 'C frees it')
   call MPI_INFO_GET_NKEYS(info, i, ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'Fortran sees the handle C freed as dead')
   call check(c_nkeys(info) == -MPI_ERR_INFO, 'and so does C')

   ! ---- IERROR is the class C returns -----------------------------------------------------
   call MPI_INFO_CREATE(info, ierr)
   call MPI_INFO_SET(info, 'k', 'v', ierr)
   call check(ierr == c_rc_set(info, 'k' // z, 'v' // z), 'success')
   call MPI_INFO_SET(handle, 'k', 'v', ierr)
   call check(ierr == c_rc_set(handle, 'k' // z, 'v' // z) .and. ierr == MPI_ERR_INFO, &
      'MPI_INFO_NULL')
   call MPI_INFO_SET(info + 1000000, 'k', 'v', ierr)
   call check(ierr == c_rc_set(info + 1000000, 'k' // z, 'v' // z), 'a forged handle')
   call MPI_INFO_SET(MPI_INFO_ENV, 'k', 'v', ierr)
   call check(ierr == c_rc_set(MPI_INFO_ENV, 'k' // z, 'v' // z), 'MPI_INFO_ENV')
   call MPI_INFO_SET(info, '  ', 'v', ierr)
   call check(ierr == c_rc_set(info, '' // z, 'v' // z) .and. ierr == MPI_ERR_INFO_KEY, &
      'an all-blank key is C''s empty key')
   call MPI_INFO_SET(info, repeat('k', 256), 'v', ierr)
   call check(ierr == c_rc_set(info, repeat('k', 256) // z, 'v' // z), 'a key too long')
   call MPI_INFO_SET(info, 'k', repeat('v', 1024), ierr)
   call check(ierr == c_rc_set(info, 'k' // z, repeat('v', 1024) // z), 'a value too long')
   call MPI_INFO_FREE(info, ierr)

   ! ---- error strings are C's, padded -------------------------------------------------------
   do i = 1, size(classes)
      message = repeat('#', len(message))
      rlen = -7
      call MPI_ERROR_STRING(classes(i), message, rlen, ierr)
      if (classes(i) == 999) then
         call check(ierr == MPI_ERR_ARG .and. rlen == -7, 'no message for an unknown code')
      else
         call check_rc(ierr, MPI_SUCCESS, 'error string')
         call check(c_message_is(classes(i), message, rlen) == 1, 'Fortran''s message is C''s')
         call check(message(rlen+1:) == '', 'the message is blank-padded')
      end if
   end do

   ! ---- C calls the old-style routines as a Fortran compiler does --------------------------
   call c_abi_checks(p, f)
   call check(p > 0 .and. f == 0, 'the C side''s checks of the calling convention')
   passed = passed + p
   failed = failed + f
   call check_report('f_mixed')
end program f_mixed

! The object C made, through the mpi_info_f08 module.
subroutine f08_reads(from_c)
   use mpi_info_f08
   use fcheck
   implicit none
   integer, intent(in) :: from_c
   type(MPI_Info) :: info, copy
   character(len=20) :: value
   logical :: flag
   integer :: ierr, nkeys
   info = MPI_Info(from_c)
   call MPI_Info_get(info, 'plain', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == 'p', 'mpi_info_f08 reads C''s object')
   call MPI_Info_dup(info, copy, ierr)
   call MPI_Info_get_nkeys(copy, nkeys, ierr)
   call check(ierr == MPI_SUCCESS .and. nkeys == 3, 'and duplicates it')
   call MPI_Info_free(copy, ierr)
end subroutine
