! f_env.f90 - MPI_INFO_ENV and MPI_INFO_CREATE_ENV seen from a Fortran program: the command
! is this program (its argv[0]), argv holds its arguments, and the other pairs are this
! process's (host, working directory, ...). The program runs itself once more with arguments
! ("--child 'a b' c"), and the child's counts are added to this run's.
! MPI_INFO_CREATE_ENV takes no arguments: it builds a new object from the process's own
! command line, with wdir the directory at the call.
program f_env
   use, intrinsic :: iso_c_binding, only: c_char, c_int, c_size_t, c_null_char, c_ptr, &
      c_associated
   use fcheck
   use fsupport, only: dump
   implicit none
   include 'mpi_infof.h'
   interface
      function getcwd(buf, size) bind(C, name='getcwd')
         import :: c_char, c_size_t, c_ptr
         character(kind=c_char) :: buf(*)
         integer(c_size_t), value :: size
         type(c_ptr) :: getcwd
      end function
      function chdir(path) bind(C, name='chdir')
         import :: c_char, c_int
         character(kind=c_char), intent(in) :: path(*)
         integer(c_int) :: chdir
      end function
      function getpid() bind(C, name='getpid')
         import :: c_int
         integer(c_int) :: getpid
      end function
      function gethostname(name, len) bind(C, name='gethostname')
         import :: c_char, c_int, c_size_t
         character(kind=c_char) :: name(*)
         integer(c_size_t), value :: len
         integer(c_int) :: gethostname
      end function
   end interface
   character(len=4096) :: arg0, arg, start_dir, other_dir, report
   character(len=:), allocatable :: args, envsnap
   integer :: n, ierr, env, env2, status, cmdstat, unit, p, f
   logical :: child

   call get_command_argument(0, arg0)
   args = ''
   do n = 1, command_argument_count()
      call get_command_argument(n, arg)
      if (n > 1) args = args // ' '
      args = args // trim(arg)
   end do
   child = command_argument_count() == 3
   if (child) then
      call get_command_argument(1, arg)
      child = arg == '--child'
   end if
   start_dir = cwd()

   ! ---- MPI_INFO_ENV ------------------------------------------------------------------------
   call check_value(MPI_INFO_ENV, 'command', trim(arg0), 'command is argv(0)')
   if (len(args) > 0) then
      call check_value(MPI_INFO_ENV, 'argv', args, 'argv holds the arguments, joined by blanks')
   else
      call check(value_length(MPI_INFO_ENV, 'argv') == -1, 'no arguments: no argv')
   end if
   if (child) call check_value(MPI_INFO_ENV, 'argv', '--child a b c', 'the child''s argv')
   call check_value(MPI_INFO_ENV, 'maxprocs', '1', 'maxprocs')
   call check_value(MPI_INFO_ENV, 'soft', '1', 'soft')
   call check_value(MPI_INFO_ENV, 'host', hostname(), 'host is gethostname')
   call check_value(MPI_INFO_ENV, 'wdir', trim(start_dir), 'wdir')
   call check_value(MPI_INFO_ENV, 'thread_level', 'MPI_THREAD_MULTIPLE', 'thread_level')
   call check(value_length(MPI_INFO_ENV, 'arch') > 0, 'arch: present, not empty')
   envsnap = dump(MPI_INFO_ENV)

   ! ---- MPI_INFO_CREATE_ENV: the same pairs, in a new writable object ----------------------
   call MPI_INFO_CREATE_ENV(env, ierr)
   call check_rc(ierr, MPI_SUCCESS, 'create_env')
   call check(env >= 4096 .and. env /= MPI_INFO_ENV, 'create_env makes a new object')
   call check_same(dump(env), envsnap, 'create_env: MPI_INFO_ENV''s pairs, in its order')
   call MPI_INFO_SET(env, 'command', 'changed', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'the new object is writable')
   call check_same(dump(MPI_INFO_ENV), envsnap, 'changing it leaves MPI_INFO_ENV alone')

   ! wdir is the directory at the call; MPI_INFO_ENV keeps the one at load.
   other_dir = merge('/tmp', '/   ', trim(start_dir) /= '/tmp')
   call check(chdir(trim(other_dir) // c_null_char) == 0, 'chdir')
   other_dir = cwd()
   call MPI_INFO_CREATE_ENV(env2, ierr)
   call check_rc(ierr, MPI_SUCCESS, 'create_env elsewhere')
   call check_value(env2, 'wdir', trim(other_dir), 'create_env: wdir is the directory now')
   call check_value(env2, 'command', trim(arg0), 'create_env: command is argv(0)')
   call check_value(MPI_INFO_ENV, 'wdir', trim(start_dir), 'MPI_INFO_ENV''s wdir stays')
   call check(chdir(trim(start_dir) // c_null_char) == 0, 'chdir back')
   call MPI_INFO_FREE(env, ierr)
   call MPI_INFO_FREE(env2, ierr)
   call check(ierr == MPI_SUCCESS .and. env2 == MPI_INFO_NULL, 'free')

   if (child) then
      ! Report to the parent, which prints the one summary line.
      call get_environment_variable('F_ENV_REPORT', report)
      open (newunit=unit, file=trim(report), status='replace', action='write')
      write (unit, '(i0,1x,i0)') passed, failed
      close (unit)
      deallocate (args, envsnap)
      stop
   end if

   ! ---- the second run, with arguments --------------------------------------------------------
   write (report, '(a,i0)') '/tmp/f_env_report.', getpid()
   status = -1
   cmdstat = -1
   call execute_command_line('F_ENV_REPORT=' // trim(report) // ' ' // trim(arg0) // &
      ' --child ''a b'' c', exitstat=status, cmdstat=cmdstat)
   call check(cmdstat == 0 .and. status == 0, 'the child ran')
   p = -1
   f = -1
   open (newunit=unit, file=trim(report), status='old', action='read', iostat=ierr)
   if (ierr == 0) then
      read (unit, *, iostat=ierr) p, f
      close (unit, status='delete')
   end if
   call check(p > 0 .and. f == 0, 'the child''s checks passed')
   if (p > 0) passed = passed + p
   if (f > 0) failed = failed + f
   deallocate (args, envsnap)
   call check_report('f_env')

contains

   function cwd() result(dir)
      character(len=4096) :: dir
      character(kind=c_char) :: buf(4096)
      integer :: i
      dir = ''
      if (.not. c_associated(getcwd(buf, size(buf, kind=c_size_t)))) return
      do i = 1, size(buf)
         if (buf(i) == c_null_char) exit
         dir(i:i) = buf(i)
      end do
   end function

   function hostname() result(name)
      character(len=:), allocatable :: name
      character(kind=c_char) :: buf(256)
      integer :: i
      name = ''
      buf = c_null_char
      if (gethostname(buf, size(buf, kind=c_size_t) - 1) /= 0) return
      do i = 1, size(buf)
         if (buf(i) == c_null_char) exit
         name = name // buf(i)
      end do
   end function

   ! The length of the value of `key` in the object, or -1 if it does not hold the key.
   integer function value_length(info, key)
      integer, intent(in) :: info
      character(len=*), intent(in) :: key
      integer :: ierr
      logical :: flag
      call MPI_INFO_GET_VALUELEN(info, key, value_length, flag, ierr)
      if (ierr /= MPI_SUCCESS .or. .not. flag) value_length = -1
   end function

   ! The object holds `key` with exactly `expected`.
   subroutine check_value(info, key, expected, what)
      integer, intent(in) :: info
      character(len=*), intent(in) :: key, expected, what
      character(len=MPI_MAX_INFO_VAL) :: value
      integer :: vlen, ierr
      logical :: flag
      vlen = value_length(info, key)
      call check(vlen >= 0, what // ': key present')
      if (vlen < 0) return
      call MPI_INFO_GET(info, key, MPI_MAX_INFO_VAL, value, flag, ierr)
      call check_same(value(1:vlen), expected, what)
   end subroutine
end program f_env
