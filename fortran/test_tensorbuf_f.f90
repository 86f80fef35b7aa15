! The Fortran test of tensorbuf_f, also docs/c_api.md's Fortran example (ctest
! fortran.test_tensorbuf_f, and scripts/check_install.sh against the installed .mod).
module release_counter
  use, intrinsic :: iso_c_binding
  implicit none
  integer :: releases = 0
contains
  subroutine count_release(ctx, last_use_stream) bind(c)
    type(c_ptr), value :: ctx, last_use_stream
    releases = releases + 1
  end subroutine
end module

program test_tensorbuf_f
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use release_counter
  implicit none
  real(c_float) :: a(4, 2), expected(4, 2), before(4, 2)
  real(c_double) :: d(3, 2, 2), d_out(3, 2, 2)
  integer(c_int32_t) :: idx(2, 3), rows(1, 1)
  integer(c_int64_t) :: idx64(3, 1)
  real(c_float) :: upd(3), row(4, 1)
  logical :: big(4, 2)
  integer(c_int8_t) :: mask(4, 2)
  complex(c_float_complex) :: z(2)
  type(tb_borrow_desc) :: desc
  type(c_ptr) :: handle
  integer(c_int64_t), target :: dims(1)
  real(c_float), target :: own(3)
  integer :: ierr, i_

  if (c_tb_abi_version() /= 1) error stop 'unexpected ABI version'

  ! a(4, 2) is the row-major tensor [2, 4]: index tuple (r, c) is a(c + 1, r + 1).
  a = 1
  idx = reshape([1, 3, 0, 0, 1, 1], [2, 3])      ! tuples (1, 3), (0, 0), (1, 1)
  upd = [10, 20, 30]
  call tb_tensor_scatter_nd_add_in_place(a, idx, upd)
  expected = 1
  expected(4, 2) = 11
  expected(1, 1) = 21
  expected(2, 2) = 31
  call check(all(a == expected), 'scatter_nd_add in place, shape reversed')

  ! Index tuples of one coordinate select rows of the tensor: a column of the Fortran array.
  rows(1, 1) = 0
  row(:, 1) = [5, 6, 7, 8]
  call tb_tensor_scatter_nd_update_in_place(a, rows, row)
  call check(all(a(:, 1) == [5, 6, 7, 8]) .and. all(a(:, 2) == expected(:, 2)), &
      'scatter_nd_update of a tensor row')

  ! boolean_mask_update with a logical mask expression: a(a > 6) = 0.
  big = a > 6
  call tb_boolean_mask_update_in_place(a, a > 6, 0.0_c_float)
  call check(all(pack(a, big) == 0) .and. all(pack(a, .not. big) > 0), &
      'boolean_mask_update with the mask a > 6')
  ! ... and an integer(c_int8_t) 0/1 mask, read as bool: a(:, 2) = -1.
  mask = 0
  mask(:, 2) = 1
  call tb_boolean_mask_update_in_place(a, mask, -1.0_c_float)
  call check(all(a(:, 2) == -1) .and. all(pack(a(:, 1), .not. big(:, 1)) > 0), &
      'boolean_mask_update with an int8 mask')

  ! An error: an index out of bounds, reported through ierr, with the message; a unchanged.
  before = a
  idx(1, 1) = 2
  call tb_tensor_scatter_nd_sub_in_place(a, idx, upd, ierr)
  call check(ierr == TB_INVALID_ARGUMENT, 'out-of-bounds index gives TB_INVALID_ARGUMENT')
  call check(index(tb_last_error_message(), 'tb_tensor_scatter_nd_sub_in_place: ') == 1, &
      'the message names the C function')
  call check(all(a == before), 'a failed op leaves its tensor unchanged')
  print '(a)', 'error message: ' // tb_last_error_message()

  ! Out of place, real64 rank 3 (tensor [2, 2, 3]) with int64 indices of the first dim only.
  d = 1
  idx64(:, 1) = [1, 0, 2]
  call tb_tensor_scatter_nd_max(d, idx64, 4.0_c_double, d_out, ierr)
  call check(ierr == TB_INVALID_ARGUMENT, 'updates of the wrong shape are refused')
  call tb_tensor_scatter_nd_max(d, reshape([1_c_int64_t], [1, 1]), &
      reshape([(real(i_, c_double), i_ = 1, 6)], [3, 2, 1]), d_out, ierr)
  call check(ierr == TB_OK, 'scatter_nd_max out of place: ' // tb_last_error_message())
  call check(all(d == 1), 'out of place leaves its input alone')
  call check(all(d_out(:, :, 1) == 1) .and. d_out(3, 2, 2) == 6 .and. d_out(1, 1, 2) == 1, &
      'scatter_nd_max out of place, rank 3')

  ! A type the C API has no dtype for: the wrapper's own error.
  z = 0
  call tb_tensor_scatter_nd_add_in_place(z, idx, upd, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. &
      tb_last_error_message() == 'tb_tensor_scatter_nd_add_in_place: a is not an array of ' // &
      'rank 0 to 3 of real(c_float), real(c_double), integer(c_int8_t / c_int16_t / ' // &
      'c_int32_t / c_int64_t), logical(c_bool) or logical', &
      'an unsupported array type is TB_INVALID_ARGUMENT')

  ! The raw interface: borrow_ex with a Fortran release callback, called once at destroy.
  own = [1, 2, 3]
  dims = 3
  desc%struct_size = c_sizeof(desc)
  desc%data = c_loc(own)
  desc%dtype = TB_FLOAT32
  desc%ndim = 1
  desc%shape = c_loc(dims)
  desc%release = c_funloc(count_release)
  call check(c_tb_buffer_borrow_ex(desc, handle) == TB_OK, 'c_tb_buffer_borrow_ex')
  call check(releases == 0, 'no release before destroy')
  call c_tb_buffer_destroy(handle)
  call check(releases == 1, 'release called once at destroy')
  print '(a)', 'tensorbuf_f: ok'

contains

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (.not. condition) then
      print '(a)', 'FAILED: ' // what
      error stop 1
    end if
  end subroutine

end program
