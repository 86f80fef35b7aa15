! Wrapper calls from 8 OpenMP threads at once, half of them failing: each
! thread's message (tb_get_last_error_message) is its own last failure; a message shared by all
! threads corrupted the heap (ctest fortran.threads, built with -fopenmp).
program test_threads
  use, intrinsic :: iso_c_binding
  use omp_lib
  use tensorbuf_f
  implicit none
  integer, parameter :: threads = 8, rounds = 2000
  integer :: wrong, thread_count

  wrong = 0
  thread_count = 0
  !$omp parallel num_threads(threads) reduction(+:wrong, thread_count)
  call work(omp_get_thread_num(), wrong)
  thread_count = 1
  !$omp end parallel
  if (thread_count /= threads) then
    print '(a, i0)', 'FAILED: threads that ran: ', thread_count
    error stop 1
  end if
  if (wrong > 0) then
    print '(a, i0)', 'FAILED: wrong results or messages: ', wrong
    error stop 1
  end if
  print '(a)', 'threads: ok'

contains

  ! Alternates a good call and a failing one whose message names this thread's bad index.
  subroutine work(thread, wrong)
    integer, intent(in) :: thread
    integer, intent(inout) :: wrong
    real(c_float) :: a(4)
    integer(c_int32_t) :: good(1), bad(1)
    character(len=16) :: token
    character(len=:), allocatable :: message
    integer :: round, ierr
    a = 0
    good = mod(thread, 4)
    bad = 1000 + thread
    write (token, '(i0)') bad(1)
    do round = 1, rounds
      call tb_tensor_scatter_nd_add_in_place(a, good, 1.0_c_float, ierr)
      if (ierr /= TB_OK) wrong = wrong + 1
      call tb_tensor_scatter_nd_add_in_place(a, bad, 1.0_c_float, ierr)
      if (ierr /= TB_INVALID_ARGUMENT) wrong = wrong + 1
      call tb_get_last_error_message(message)
      if (index(message, trim(token)) == 0) wrong = wrong + 1
    end do
    if (a(mod(thread, 4) + 1) /= rounds .or. sum(a) /= rounds) wrong = wrong + 1
  end subroutine

end program
