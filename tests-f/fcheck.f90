! fcheck.f90 - the Fortran suite's small test harness (tests-c/check.h for Fortran).
!
! fcheck: each test program calls check / check_rc / check_same as often as it likes and
! ends with check_report, which prints "<program>: N passed, M failed" as its last line
! (tests-c/run-suite.sh adds those lines up) and stops with status 1 if any check failed.
!
! fsupport: a snapshot of an object's whole contents, made through the old-style routines,
! to check that a call changed nothing (tests-c/support.h's dump).
module fcheck
   use, intrinsic :: iso_fortran_env, only: error_unit, output_unit
   implicit none
   private
   public :: check, check_rc, check_same, check_report, passed, failed, padded
   integer, save :: passed = 0, failed = 0
contains
   subroutine check(cond, what)
      logical, intent(in) :: cond
      character(len=*), intent(in) :: what
      if (cond) then
         passed = passed + 1
      else
         failed = failed + 1
         write (error_unit, '(2a)') 'check failed: ', what
      end if
   end subroutine

   ! An IERROR (an MPI error class) is exactly `expected`.
   subroutine check_rc(got, expected, what)
      integer, intent(in) :: got, expected
      character(len=*), intent(in) :: what
      if (got == expected) then
         passed = passed + 1
      else
         failed = failed + 1
         write (error_unit, '(3a,i0,a,i0)') 'check failed: ', what, ': IERROR ', got, &
            ', expected ', expected
      end if
   end subroutine

   ! Two strings are the same: same length and same characters (Fortran's == would pad the
   ! shorter one with blanks, which is exactly what these checks must see).
   subroutine check_same(got, expected, what)
      character(len=*), intent(in) :: got, expected
      character(len=*), intent(in) :: what
      if (len(got) == len(expected) .and. got == expected) then
         passed = passed + 1
      else
         failed = failed + 1
         write (error_unit, '(3a,i0,5a,i0)') 'check failed: ', what, ': got (', len(got), &
            ') [', got, '], expected [', expected, '] length ', len(expected)
      end if
   end subroutine

   ! `text` blank-padded to `n` characters: what a string output of declared length n holds.
   pure function padded(text, n) result(out)
      character(len=*), intent(in) :: text
      integer, intent(in) :: n
      character(len=n) :: out
      out = text
   end function

   subroutine check_report(name)
      character(len=*), intent(in) :: name
      print '(a,": ",i0," passed, ",i0," failed")', name, passed, failed
      flush (output_unit)
      if (failed > 0) stop 1, quiet=.true.
   end subroutine
end module fcheck

module fsupport
   implicit none
   private
   public :: dump
   include 'mpi_infof.h'
contains
   ! "n=<nkeys>" and then "|key=value" for each pair in order, through the old-style routines
   ! (nkeys, nthkey, get_valuelen, get). A call that fails shows as a "<...>" marker, so the
   ! snapshot then differs from any good one.
   function dump(info) result(text)
      integer, intent(in) :: info
      character(len=:), allocatable :: text
      character(len=MPI_MAX_INFO_KEY) :: key
      character(len=MPI_MAX_INFO_VAL) :: value
      character(len=16) :: count
      integer :: nkeys, n, vlen, ierr
      logical :: flag
      call MPI_INFO_GET_NKEYS(info, nkeys, ierr)
      if (ierr /= MPI_SUCCESS) then
         text = '<nkeys failed>'
         return
      end if
      write (count, '(i0)') nkeys
      text = 'n=' // trim(count)
      do n = 0, nkeys - 1
         call MPI_INFO_GET_NTHKEY(info, n, key, ierr)
         if (ierr /= MPI_SUCCESS) then
            text = text // '|<nthkey failed>'
            cycle
         end if
         call MPI_INFO_GET_VALUELEN(info, key, vlen, flag, ierr)
         if (ierr /= MPI_SUCCESS .or. .not. flag) then
            text = text // '|<valuelen failed>'
            cycle
         end if
         call MPI_INFO_GET(info, key, vlen, value, flag, ierr)
         if (ierr /= MPI_SUCCESS .or. .not. flag) then
            text = text // '|<get failed>'
            cycle
         end if
         text = text // '|' // trim(key) // '=' // value(1:vlen)
      end do
   end function
end module fsupport
