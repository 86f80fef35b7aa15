! Array sections as wrapper arguments: every section a Fortran user can write
! (strided, a row, reversed, rank 3 with negative strides) must read or write exactly the
! elements it names. Each array lives inside a larger one, with guard elements before and after
! it that must stay untouched (ctest fortran.sections).
program test_sections
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  integer, parameter :: guard = 10
  real(c_float), parameter :: sentinel = -7
  ! store = guard elements, the array a(10, 4), guard elements; ex is the expected store.
  real(c_float), target :: store(2 * guard + 40), ex(2 * guard + 40)
  real(c_float), pointer :: a(:, :), e(:, :)
  real(c_float) :: c(5, 4)
  real(c_double), target :: store3(2 * guard + 24), ex3(2 * guard + 24)
  real(c_double), pointer :: a3(:, :, :), e3(:, :, :)
  integer(c_int64_t), target :: istore(2 * guard + 12), iex(2 * guard + 12)
  integer(c_int64_t), pointer :: ia(:, :), ie(:, :)
  integer(c_int32_t) :: idx(2, 3), idx_wide(2, 6), idx_rows(3, 3), one(1, 2), idx3(3, 2)
  real(c_float) :: upd(6)
  logical(c_bool) :: cmask(10, 4)
  logical :: fmask(10, 4)
  type(c_ptr) :: handle
  integer :: ierr, i

  a(1:10, 1:4) => store(guard + 1:guard + 40)
  e(1:10, 1:4) => ex(guard + 1:guard + 40)
  a3(1:4, 1:3, 1:2) => store3(guard + 1:guard + 24)
  e3(1:4, 1:3, 1:2) => ex3(guard + 1:guard + 24)
  ia(1:4, 1:3) => istore(guard + 1:guard + 12)
  ie(1:4, 1:3) => iex(guard + 1:guard + 12)

  ! a(1:10:2, :) is s(5, 4), s(i, j) = a(2i - 1, j): the tensor [4, 5]; tuple [r, c] is
  ! s(c + 1, r + 1).
  call reset()
  idx = reshape([0, 0, 3, 4, 1, 2], [2, 3])
  call tb_tensor_scatter_nd_update_in_place(a(1:10:2, :), idx, [100.0_c_float, 200.0_c_float, &
      300.0_c_float], ierr)
  e(1, 1) = 100; e(9, 4) = 200; e(5, 2) = 300
  call expect(ierr, 'update in place into a(1:10:2, :)')

  ! The row section a(2, :): the tensor [4].
  call reset()
  one = reshape([2, 0], [1, 2])
  call tb_tensor_scatter_nd_add_in_place(a(2, :), one, [5.0_c_float, 7.0_c_float], ierr)
  e(2, 3) = e(2, 3) + 5; e(2, 1) = e(2, 1) + 7
  call expect(ierr, 'add in place into the row a(2, :)')

  ! The reversed section a(10:1:-1, 3:3): s(i, 1) = a(11 - i, 3), the tensor [1, 10].
  call reset()
  idx(:, 1:2) = reshape([0, 0, 0, 9], [2, 2])
  call tb_tensor_scatter_nd_update_in_place(a(10:1:-1, 3:3), idx(:, 1:2), &
      [1000.0_c_float, 2000.0_c_float], ierr)
  e(10, 3) = 1000; e(1, 3) = 2000
  call expect(ierr, 'update in place into the reversed a(10:1:-1, 3:3)')

  ! Strided indices: the odd columns of idx_wide hold the tuples, the even ones garbage.
  call reset()
  idx_wide = reshape([1, 3, 99, 99, 0, 0, 99, 99, 3, 9, 99, 99], [2, 6])
  call tb_tensor_scatter_nd_update_in_place(a, idx_wide(:, 1:6:2), [1.5_c_float, 2.5_c_float, &
      3.5_c_float], ierr)
  e(4, 2) = 1.5; e(1, 1) = 2.5; e(10, 4) = 3.5
  call expect(ierr, 'strided indices idx_wide(:, 1:6:2)')
  ! ... and indices strided in their first dimension: rows 1 and 3 are the coordinates.
  call reset()
  idx_rows = reshape([2, 99, 1, 0, 99, 5, 3, 99, 9], [3, 3])
  call tb_tensor_scatter_nd_update_in_place(a, idx_rows(1:3:2, :), [4.0_c_float, 5.0_c_float, &
      6.0_c_float], ierr)
  e(2, 3) = 4; e(6, 1) = 5; e(10, 4) = 6
  call expect(ierr, 'indices idx_rows(1:3:2, :)')

  ! Strided and reversed updates.
  call reset()
  upd = [1, -1, 2, -2, 3, -3]
  idx = reshape([0, 1, 1, 1, 2, 1], [2, 3])
  call tb_tensor_scatter_nd_update_in_place(a, idx, upd(5:1:-2), ierr)
  e(2, 1) = 3; e(2, 2) = 2; e(2, 3) = 1
  call expect(ierr, 'updates upd(5:1:-2)')

  ! Out of place into a strided section of `out`: the other elements and the guards stay.
  call reset()
  c = reshape([(real(i, c_float), i = 1, 20)], [5, 4])
  idx = reshape([0, 0, 3, 4, 1, 2], [2, 3])
  call tb_tensor_scatter_nd_add(c, idx, [100.0_c_float, 200.0_c_float, 300.0_c_float], &
      a(1:10:2, :), ierr)
  e(1:10:2, :) = c
  e(1, 1) = e(1, 1) + 100; e(9, 4) = e(9, 4) + 200; e(5, 2) = e(5, 2) + 300
  call expect(ierr, 'out of place into out = a(1:10:2, :)')
  call check(all(c == reshape([(real(i, c_float), i = 1, 20)], [5, 4])), 'input unchanged')

  ! Masks: a logical(c_bool) section, and a default logical one, into a section of a.
  call reset()
  cmask = .false.
  cmask(1:10:2, :) = reshape([(mod(i, 3) == 0, i = 1, 20)], [5, 4])
  cmask(2:10:2, :) = .true.     ! garbage between the mask's elements
  call tb_boolean_mask_update_in_place(a(2:10:2, :), cmask(1:10:2, :), 9.0_c_float, ierr)
  where (reshape([(mod(i, 3) == 0, i = 1, 20)], [5, 4])) e(2:10:2, :) = 9
  call expect(ierr, 'logical(c_bool) mask section into a(2:10:2, :)')
  call reset()
  fmask = .true.
  fmask(10:1:-1, 2) = [(i > 7, i = 1, 10)]     ! the section's elements 8 to 10
  call tb_boolean_mask_update_in_place(a(:, 4), fmask(10:1:-1, 2), -1.0_c_float, ierr)
  e(8:10, 4) = -1
  call expect(ierr, 'reversed default logical mask section into a(:, 4)')

  ! Rank 3 real64 with negative strides: s = a3(4:1:-2, :, 2:1:-1) is s(2, 3, 2),
  ! s(i, j, k) = a3(6 - 2i, j, 3 - k), the tensor [2, 3, 2].
  store3 = -7
  store3(guard + 1:guard + 24) = [(real(i, c_double), i = 1, 24)]
  ex3 = store3
  idx3 = reshape([0, 2, 1, 1, 0, 0], [3, 2])
  call tb_tensor_scatter_nd_update_in_place(a3(4:1:-2, :, 2:1:-1), idx3, &
      [50.0_c_double, 60.0_c_double], ierr)
  e3(2, 3, 2) = 50; e3(4, 1, 1) = 60
  call check(ierr == TB_OK, 'rank 3 section: ' // tb_last_error_message())
  call check(all(store3 == ex3), 'rank 3 real64 section a3(4:1:-2, :, 2:1:-1)')

  ! int64, the column section of a row-strided view: ia(2:4:2, 3) = ia(2, 3), ia(4, 3).
  istore = -7
  istore(guard + 1:guard + 12) = [(int(i, c_int64_t), i = 1, 12)]
  iex = istore
  call tb_tensor_scatter_nd_max_in_place(ia(2:4:2, 3), reshape([1_c_int32_t], [1, 1]), &
      [77_c_int64_t], ierr)
  ie(4, 3) = 77
  call check(ierr == TB_OK .and. all(istore == iex), 'int64 section ia(2:4:2, 3)')

  ! A failing call on a section leaves it (and everything around it) unchanged.
  call reset()
  idx = reshape([0, 0, 3, 5, 1, 2], [2, 3])     ! [3, 5] is outside the tensor [4, 5]
  call tb_tensor_scatter_nd_update_in_place(a(1:10:2, :), idx, [1.0_c_float, 2.0_c_float, &
      3.0_c_float], ierr)
  call check(ierr == TB_INVALID_ARGUMENT, 'a bad index on a section is an error')
  call check(all(store == ex), 'a failed call on a section changes nothing')

  ! tb_borrow hands out a buffer over the array's own memory: a section with gaps is refused.
  call tb_borrow(a(1:10:2, :), handle, ierr=ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. &
      index(tb_last_error_message(), 'not contiguous') > 0, &
      'tb_borrow of a strided section is refused: ' // tb_last_error_message())
  call tb_borrow(a(:, 2:3), handle, ierr=ierr)
  call check(ierr == TB_OK, 'tb_borrow of a contiguous section')
  call c_tb_buffer_destroy(handle)
  call finish('sections')

contains

  subroutine reset()
    store = sentinel
    store(guard + 1:guard + 40) = [(real(i, c_float), i = 1, 40)]
    ex = store
  end subroutine

  subroutine expect(status, what)
    integer, intent(in) :: status
    character(len=*), intent(in) :: what
    call check(status == TB_OK, what // ': ierr = 0 (' // tb_last_error_message() // ')')
    call check(all(store == ex), what // ': exactly the named elements written')
  end subroutine

end program
