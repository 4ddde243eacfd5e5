! hints.f90 - examples/hints.c in Fortran, with the mpi_info_f08 module: what
! `make run-fortran` builds and runs.
!
! Builds a set of MPI-IO style hints, lists them in order, duplicates them, reads a value
! with MPI_Info_get_string into a string that is too short (and learns the length it needs),
! and prints MPI_INFO_ENV. Extra hints can be given as `--hint key=value`.
!
!   gfortran hints.f90 $(pkg-config --cflags --libs mpi-info-f08) -o hints && ./hints
program hints
   use mpi_info_f08
   implicit none
   type(MPI_Info) :: hints_info, copy, freed
   character(len=MPI_MAX_ERROR_STRING) :: message
   character(len=8) :: small
   character(len=1024) :: arg
   integer :: ierror, i, equals, buflen, nkeys, length
   logical :: flag

   call MPI_Info_create(hints_info, ierror)
   call check(ierror, 'MPI_Info_create')
   call MPI_Info_set(hints_info, 'cb_buffer_size', '16777216', ierror)
   call check(ierror, 'MPI_Info_set')
   call MPI_Info_set(hints_info, 'romio_cb_write', 'enable', ierror)
   call check(ierror, 'MPI_Info_set')
   call MPI_Info_set(hints_info, 'my_layer_hint', 'kept even though nobody here knows it', &
      ierror)
   call check(ierror, 'MPI_Info_set')
   i = 1
   do while (i < command_argument_count())
      call get_command_argument(i, arg)
      if (arg == '--hint') then
         i = i + 1
         call get_command_argument(i, arg)
         equals = index(arg, '=')
         if (equals > 1) then
            ! Leading and trailing blanks of key and value are stripped, as in every call.
            call MPI_Info_set(hints_info, arg(1:equals-1), arg(equals+1:), ierror)
            call check(ierror, 'MPI_Info_set')
         end if
      end if
      i = i + 1
   end do
   ! Replacing a value keeps the key where it was.
   call MPI_Info_set(hints_info, 'cb_buffer_size', '33554432', ierror)
   call check(ierror, 'MPI_Info_set')
   call print_all('hints', hints_info)

   ! A duplicate is independent: changing it leaves the original alone.
   call MPI_Info_dup(hints_info, copy, ierror)
   call check(ierror, 'MPI_Info_dup')
   call MPI_Info_delete(copy, 'romio_cb_write', ierror)
   call check(ierror, 'MPI_Info_delete')
   call print_all('duplicate, after deleting romio_cb_write', copy)

   ! MPI_Info_get_string tells how long a string the whole value needs.
   buflen = len(small)
   call MPI_Info_get_string(hints_info, 'my_layer_hint', buflen, small, flag, ierror)
   call check(ierror, 'MPI_Info_get_string')
   print '(3a,i0,a)', 'get_string into 8 characters: "', small, '"; the whole value has ', &
      buflen, ' characters'

   ! Errors are classes, never crashes: a freed handle is recognised.
   freed = copy
   call MPI_Info_free(copy, ierror)
   call check(ierror, 'MPI_Info_free')
   call MPI_Info_get_nkeys(freed, nkeys, ierror)
   call MPI_Error_string(ierror, message, length)
   print '(2a)', 'using the freed duplicate: ', message(1:length)

   call print_all('MPI_INFO_ENV', MPI_INFO_ENV)
   call MPI_Info_free(hints_info, ierror)
   call check(ierror, 'MPI_Info_free')

contains

   ! Every call sets ierror to MPI_SUCCESS or an error class; say which and stop.
   subroutine check(ierror, what)
      integer, intent(in) :: ierror
      character(len=*), intent(in) :: what
      character(len=MPI_MAX_ERROR_STRING) :: message
      integer :: length
      if (ierror /= MPI_SUCCESS) then
         call MPI_Error_string(ierror, message, length)
         print '(3a)', what, ' failed: ', message(1:length)
         error stop 1
      end if
   end subroutine

   subroutine print_all(title, info)
      character(len=*), intent(in) :: title
      type(MPI_Info), intent(in) :: info
      character(len=MPI_MAX_INFO_KEY) :: key
      character(len=MPI_MAX_INFO_VAL) :: value
      integer :: nkeys, n, ierror, valuelen
      logical :: flag
      call MPI_Info_get_nkeys(info, nkeys, ierror)
      call check(ierror, 'MPI_Info_get_nkeys')
      print '(2a,i0,a)', title, ' (', nkeys, ' pairs)'
      do n = 0, nkeys - 1
         call MPI_Info_get_nthkey(info, n, key, ierror)
         call check(ierror, 'MPI_Info_get_nthkey')
         call MPI_Info_get_valuelen(info, key, valuelen, flag, ierror)
         call check(ierror, 'MPI_Info_get_valuelen')
         call MPI_Info_get(info, key, valuelen, value, flag, ierror)
         call check(ierror, 'MPI_Info_get')
         print '(2x,a16,3a)', key, ' = ', value(1:valuelen)
      end do
   end subroutine
end program hints
