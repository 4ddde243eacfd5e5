! app.F90 - a Fortran program on a host MPI layer with mpi-info inside it: examples/stub-mpi's
! mpif.h and library, and libmpi_info (docs/embedding.md, Fortran).
!
! The Makefile builds it in every combination: the info part's names from the host's mpif.h
! (which includes mpi_infof_own.h at its end) or from mpi_infof_own.h included after an mpif.h
! that has none (INFO_AFTER); the two libraries shared or static; the host's first on the link
! line or mpi-info's. tests-f/host_test.sh runs them. In each, whichever MPI_ERROR_STRING and
! MPI_ERROR_CLASS the program reaches (the host's or mpi-info's; the MPI_ or the PMPI_ name),
! the host's codes get the host's message and class, mpi-info's codes mpi-info's, a code
! nobody owns MPI_ERR_ARG with nothing written, and the info calls work.
program host_app
   use fcheck
   implicit none
   include 'mpif.h'
#ifdef INFO_AFTER
   include 'mpi_infof_own.h'
#endif
   integer, parameter :: SENT = -7
   integer, parameter :: host_codes(6) = [MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, &
      MPI_ERR_COMM, MPI_ERR_ROOT, MPI_ERR_IO]
   character(len=*), parameter :: host_messages(6) = [character(len=60) :: &
      'MPI_ERR_BUFFER: invalid buffer pointer', &
      'MPI_ERR_COUNT: invalid count argument', &
      'MPI_ERR_TYPE: invalid datatype', &
      'MPI_ERR_COMM: invalid communicator', &
      'MPI_ERR_ROOT: invalid root (the only process is rank 0)', &
      'MPI_ERR_IO: input/output error']
   integer, parameter :: library_codes(9) = [MPI_SUCCESS, MPI_ERR_ARG, MPI_ERR_OTHER, &
      MPI_ERR_INTERN, MPI_ERR_INFO_KEY, MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO, &
      MPI_ERR_NO_MEM]
   character(len=*), parameter :: library_names(9) = [character(len=20) :: 'MPI_SUCCESS', &
      'MPI_ERR_ARG', 'MPI_ERR_OTHER', 'MPI_ERR_INTERN', 'MPI_ERR_INFO_KEY', &
      'MPI_ERR_INFO_NOKEY', 'MPI_ERR_INFO_VALUE', 'MPI_ERR_INFO', 'MPI_ERR_NO_MEM']
   integer, parameter :: unowned_codes(8) = [-1, 4, 14, 36, 40, 1000, huge(0), -huge(0) - 1]
   character(len=MPI_MAX_ERROR_STRING) :: message
   character(len=MPI_MAX_INFO_VAL) :: value
   character(len=10) :: short
   character(len=40) :: what
   integer :: ierr, rank, nprocs, buffer, length, errorclass, info, i, api, n
   logical :: flag

   ! ---- the info part needs no MPI_INIT -------------------------------------------------
   call info_outside_mpi()

   ! ---- the host's calls and the codes they return --------------------------------------
   call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
   call check_rc(ierr, MPI_ERR_OTHER, 'MPI_COMM_RANK before MPI_INIT')
   call MPI_INIT(ierr)
   call check_rc(ierr, MPI_SUCCESS, 'MPI_INIT')
   call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
   call check(ierr == MPI_SUCCESS .and. rank == 0, 'MPI_COMM_RANK')
   call MPI_COMM_SIZE(MPI_COMM_WORLD, nprocs, ierr)
   call check(ierr == MPI_SUCCESS .and. nprocs == 1, 'MPI_COMM_SIZE')
   call MPI_COMM_RANK(MPI_COMM_NULL, rank, ierr)
   call check_rc(ierr, MPI_ERR_COMM, 'MPI_COMM_RANK of MPI_COMM_NULL')
   buffer = 42
   call MPI_BCAST(buffer, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
   call check(ierr == MPI_SUCCESS .and. buffer == 42, 'MPI_BCAST')
   call MPI_BCAST(buffer, -1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
   call check_rc(ierr, MPI_ERR_COUNT, 'MPI_BCAST, negative count')
   call MPI_BCAST(buffer, 1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD, ierr)
   call check_rc(ierr, MPI_ERR_TYPE, 'MPI_BCAST, MPI_DATATYPE_NULL')
   call MPI_BCAST(buffer, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
   call check_rc(ierr, MPI_ERR_ROOT, 'MPI_BCAST, root 1')

   do api = 0, 1
      ! ---- the host's codes: the host's message and class -------------------------------
      do i = 1, size(host_codes)
         write (what, '(a,i0,a,i0)') 'api ', api, ', host code ', host_codes(i)
         message = repeat('#', len(message))
         call error_string(api, host_codes(i), message, length, ierr)
         call check(ierr == MPI_SUCCESS .and. message == host_messages(i) .and. &
            length == len_trim(host_messages(i)), trim(what) // ': message')
         if (message /= host_messages(i)) print '(a)', '  got: ' // trim(message(1:80))
         errorclass = SENT
         call error_class(api, host_codes(i), errorclass, ierr)
         call check(ierr == MPI_SUCCESS .and. errorclass == host_codes(i), &
            trim(what) // ': class')
      end do
      ! A STRING shorter than the message: cut to its declared length.
      short = repeat('#', len(short))
      call error_string(api, MPI_ERR_COMM, short, length, ierr)
      call check(ierr == MPI_SUCCESS .and. short == 'MPI_ERR_CO' .and. length == 10, &
         'host message cut to a short STRING')

      ! ---- mpi-info's codes: its message (starting with the class's name) and class -----
      do i = 1, size(library_codes)
         write (what, '(a,i0,a,i0)') 'api ', api, ', library code ', library_codes(i)
         message = repeat('#', len(message))
         length = SENT
         call error_string(api, library_codes(i), message, length, ierr)
         n = len_trim(library_names(i))
         call check(ierr == MPI_SUCCESS .and. message(1:n + 1) == library_names(i)(1:n) // ':' &
            .and. length > n + 1 .and. length < MPI_MAX_ERROR_STRING .and. &
            len_trim(message) == length, trim(what) // ': message')
         errorclass = SENT
         call error_class(api, library_codes(i), errorclass, ierr)
         call check(ierr == MPI_SUCCESS .and. errorclass == library_codes(i), &
            trim(what) // ': class')
      end do

      ! ---- codes nobody owns: MPI_ERR_ARG, nothing written ------------------------------
      do i = 1, size(unowned_codes)
         write (what, '(a,i0,a,i0)') 'api ', api, ', unowned code ', unowned_codes(i)
         message = repeat('#', len(message))
         length = SENT
         call error_string(api, unowned_codes(i), message, length, ierr)
         call check(ierr == MPI_ERR_ARG .and. length == SENT .and. &
            message == repeat('#', len(message)), trim(what) // ': message')
         errorclass = SENT
         call error_class(api, unowned_codes(i), errorclass, ierr)
         call check(ierr == MPI_ERR_ARG .and. errorclass == SENT, trim(what) // ': class')
      end do
   end do

   ! ---- the info part works, and its codes reach the program ------------------------------
   call MPI_INFO_CREATE(info, ierr)
   call MPI_INFO_SET(info, 'cb_nodes', '4', ierr)
   call check_rc(ierr, MPI_SUCCESS, 'MPI_INFO_SET')
   call MPI_INFO_GET(info, 'cb_nodes', len(value), value, flag, ierr)
   call check(ierr == MPI_SUCCESS .and. flag .and. value == '4', 'MPI_INFO_GET')
   call MPI_INFO_FREE(info, ierr)
   call check(ierr == MPI_SUCCESS .and. info == MPI_INFO_NULL, 'MPI_INFO_FREE')
   call MPI_INFO_GET(MPI_INFO_NULL, 'cb_nodes', len(value), value, flag, ierr)
   call check_rc(ierr, MPI_ERR_INFO, 'MPI_INFO_GET of MPI_INFO_NULL')
   call MPI_ERROR_STRING(ierr, message, length, i)
   call check(i == MPI_SUCCESS .and. message(1:13) == 'MPI_ERR_INFO:', &
      'the message of MPI_ERR_INFO')
   call MPI_ERROR_CLASS(ierr, errorclass, i)
   call check(i == MPI_SUCCESS .and. errorclass == MPI_ERR_INFO, 'the class of MPI_ERR_INFO')

   call MPI_FINALIZE(ierr)
   call check_rc(ierr, MPI_SUCCESS, 'MPI_FINALIZE')
   ! After MPI_FINALIZE the host's calls fail with a class it leaves to mpi-info.
   call MPI_BCAST(buffer, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
   call check_rc(ierr, MPI_ERR_OTHER, 'MPI_BCAST after MPI_FINALIZE')
   call MPI_ERROR_CLASS(ierr, errorclass, i)
   call check(i == MPI_SUCCESS .and. errorclass == MPI_ERR_OTHER, 'the class of MPI_ERR_OTHER')
   call info_outside_mpi()
   call check_report('host_app')

contains
   subroutine info_outside_mpi()
      integer :: handle, rc
      call MPI_INFO_CREATE(handle, rc)
      call MPI_INFO_SET(handle, 'striping_unit', '1048576', rc)
      call check_rc(rc, MPI_SUCCESS, 'MPI_INFO_SET outside MPI')
      call MPI_INFO_FREE(handle, rc)
   end subroutine

   ! MPI_ERROR_STRING (api 0) or PMPI_ERROR_STRING (api 1).
   subroutine error_string(api, code, string, resultlen, rc)
      integer, intent(in) :: api, code
      character(len=*), intent(inout) :: string
      integer, intent(inout) :: resultlen
      integer, intent(out) :: rc
      if (api == 0) then
         call MPI_ERROR_STRING(code, string, resultlen, rc)
      else
         call PMPI_ERROR_STRING(code, string, resultlen, rc)
      end if
   end subroutine

   subroutine error_class(api, code, class, rc)
      integer, intent(in) :: api, code
      integer, intent(inout) :: class
      integer, intent(out) :: rc
      if (api == 0) then
         call MPI_ERROR_CLASS(code, class, rc)
      else
         call PMPI_ERROR_CLASS(code, class, rc)
      end if
   end subroutine
end program host_app
