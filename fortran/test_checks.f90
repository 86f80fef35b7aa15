! What the wrappers check themselves: `out`'s type and shape, default
! logical masks, and error messages that name positions the Fortran way (ctest fortran.checks).
program test_checks
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  real(c_float) :: a(4, 2), out(4, 2), wide(2, 4), flat(8)
  real(c_double) :: out64(4, 2)
  integer(c_int32_t) :: out32(4, 2), idx(2, 3), col(1, 1)
  real(c_double) :: d(3, 2, 2)
  integer(c_int64_t) :: idx3(2, 1, 2)
  logical :: big(4, 2), none(4)
  integer :: ierr, i

  a = reshape([1, 2, 3, 4, 5, 6, 7, 8], [4, 2])
  idx = reshape([0, 0, 1, 3, 0, 2], [2, 3])     ! a(1, 1), a(4, 2), a(3, 1)

  ! out: the type and the shape of a, or an error that leaves out alone.
  out32 = -1
  call tb_tensor_scatter_nd_add(a, idx, [1.0_c_float, 2.0_c_float, 3.0_c_float], out32, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(out32 == -1), 'int32 out for real32 a')
  call check(tb_last_error_message() == 'tb_tensor_scatter_nd_add: out is int32 but a is ' // &
      'float32 (out must have the type and shape of a)', 'message: ' // tb_last_error_message())
  out64 = -1
  call tb_tensor_scatter_nd_update(a, idx, [1.0_c_float, 2.0_c_float, 3.0_c_float], out64, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(out64 == -1), 'real64 out for real32 a')
  wide = -1
  call tb_tensor_scatter_nd_min(a, idx, [1.0_c_float, 2.0_c_float, 3.0_c_float], wide, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(wide == -1), 'out(2, 4) for a(4, 2)')
  call check(tb_last_error_message() == 'tb_tensor_scatter_nd_min: out has shape (2, 4) but ' // &
      'a has shape (4, 2) (out must have the type and shape of a)', &
      'message: ' // tb_last_error_message())
  flat = -1
  call tb_boolean_mask_update(a, a > 4, 0.0_c_float, flat, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(flat == -1), 'out(8) for a(4, 2)')
  out = -1
  call tb_tensor_scatter_nd_max(a, idx, [10.0_c_float, 0.0_c_float, 10.0_c_float], out, ierr)
  call check(ierr == TB_OK .and. all(out == reshape([10, 2, 10, 4, 5, 6, 7, 8], [4, 2])), &
      'out of the type and shape of a: ' // tb_last_error_message())

  ! Default logical masks, in place and out of place.
  big = a > 5
  call tb_boolean_mask_update(a, big, 0.0_c_float, out, ierr)
  call check(ierr == TB_OK .and. all(out == reshape([1, 2, 3, 4, 5, 0, 0, 0], [4, 2])), &
      'default logical mask, out of place: ' // tb_last_error_message())
  call tb_boolean_mask_update_in_place(a, a < 3, -1.0_c_float, ierr)
  call check(ierr == TB_OK .and. all(a == reshape([-1, -1, 3, 4, 5, 6, 7, 8], [4, 2])), &
      'default logical mask expression a < 3, in place: ' // tb_last_error_message())
  none = .false.
  call tb_boolean_mask_update_in_place(a, none, 1.0_c_float, ierr, axis=1)
  call check(ierr == TB_OK .and. a(1, 1) == -1, 'an all-false default logical mask')

  ! Messages: positions in Fortran terms, the tensor's beside them.
  a = 0
  idx = reshape([1, 3, 0, 0, 2, 1], [2, 3])     ! (2, 1) is outside the tensor [2, 4]
  call tb_tensor_scatter_nd_sub_in_place(a, idx, [1.0_c_float, 2.0_c_float, 3.0_c_float], ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(a == 0), 'a bad index tuple')
  call check(tb_last_error_message() == 'tb_tensor_scatter_nd_sub_in_place: the index tuple ' // &
      'indices(:, 3) names a(2, 3), outside a(4, 2) (as a tensor: indices[2] = [2, 1] does ' // &
      'not index into shape [2,4])', 'Fortran position: ' // tb_last_error_message())
  col = 5
  call tb_tensor_scatter_nd_update_in_place(a, col, reshape([1.0_c_float, 2.0_c_float, &
      3.0_c_float, 4.0_c_float], [4, 1]), ierr)
  call check(tb_last_error_message() == 'tb_tensor_scatter_nd_update_in_place: the index ' // &
      'tuple indices(:, 1) names a(:, 6), outside a(4, 2) (as a tensor: indices[0] = [5] ' // &
      'does not index into shape [2,4])', 'a column: ' // tb_last_error_message())
  ! Rank 3, indices of rank 3: tuple indices(:, 1, 2) = [1, -1] is d(:, 0, 2).
  d = 0
  idx3 = reshape([0_c_int64_t, 1_c_int64_t, 1_c_int64_t, -1_c_int64_t], [2, 1, 2])
  call tb_tensor_scatter_nd_add_in_place(d, idx3, reshape([(1.0_c_double, i = 1, 6)], &
      [3, 1, 2]), ierr)
  call check(tb_last_error_message() == 'tb_tensor_scatter_nd_add_in_place: the index tuple ' // &
      'indices(:, 1, 2) names a(:, 0, 2), outside a(3, 2, 2) (as a tensor: indices[1,0] = ' // &
      '[1, -1] does not index into shape [2,2,3])', 'rank 3: ' // tb_last_error_message())
  ! Other messages that name shapes say whose they are.
  call tb_tensor_scatter_nd_add_in_place(a, idx, [1.0_c_float], ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. index(tb_last_error_message(), &
      'updates shape [1] does not match') > 0 .and. index(tb_last_error_message(), &
      '(shapes in [] are tensor shapes: a Fortran array''s dims in reverse order)') > 0, &
      'a shape message: ' // tb_last_error_message())
  call finish('checks')

end program
