! The raw c_tb_* interfaces from several call sites: gfortran 12.2 passed
! `value` arguments by address from every call site but the first when the interfaces were
! declared as procedure(abstract interface), bind(c) (ctest fortran.raw_calls).
program test_raw_calls
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  real(c_float), target :: a(4, 2), b(4, 2), upd(2)
  integer(c_int32_t), target :: idx(2, 2)
  logical(c_bool), target :: mask(4)
  type(c_ptr) :: ha, hi, hu, hm, hout
  type(tb_scatter_options) :: options
  integer(c_int) :: status, dtype, ndim
  integer(c_int64_t) :: shape(TB_MAX_NDIM)

  a = 0
  idx = reshape([0, 1, 1, 3], [2, 2])          ! a(2, 1) and a(4, 2)
  upd = [1, 2]
  call borrow_all()
  ! Four call sites of the same function, with each oob value.
  status = c_tb_tensor_scatter_nd_add_in_place(ha, hi, hu, TB_OOB_ERROR, c_null_ptr)
  call check(status == TB_OK, 'site 1: ' // message(status))
  status = c_tb_tensor_scatter_nd_add_in_place(ha, hi, hu, TB_OOB_DEFAULT, c_null_ptr)
  call check(status == TB_OK, 'site 2: ' // message(status))
  status = c_tb_tensor_scatter_nd_add_in_place(ha, hi, hu, TB_OOB_DROP, c_null_ptr)
  call check(status == TB_OK, 'site 3: ' // message(status))
  call check(a(2, 1) == 3 .and. a(4, 2) == 6 .and. sum(a) == 9, 'three adds of [1, 2]')
  status = c_tb_tensor_scatter_nd_add_in_place(ha, hi, hu, 7_c_int, c_null_ptr)
  call check(status == TB_INVALID_ARGUMENT .and. &
      index(message(status), 'unknown tb_oob 7') > 0, 'site 4, oob 7: ' // message(status))
  ! Other functions, several sites each.
  status = c_tb_tensor_scatter_nd_sub_in_place(ha, hi, hu, TB_OOB_ERROR, c_null_ptr)
  call check(status == TB_OK, 'sub site 1: ' // message(status))
  status = c_tb_tensor_scatter_nd_update_in_place(ha, hi, hu, TB_OOB_ERROR, c_null_ptr)
  call check(status == TB_OK .and. a(2, 1) == 1 .and. a(4, 2) == 2, 'update: ' // message(status))
  status = c_tb_tensor_scatter_nd_max(ha, hi, hu, TB_OOB_DROP, c_null_ptr, hout)
  call check(status == TB_OK, 'max out of place: ' // message(status))
  status = c_tb_buffer_dtype(hout, dtype)
  call check(status == TB_OK .and. dtype == TB_FLOAT32, 'dtype of the result')
  status = c_tb_buffer_shape(hout, ndim, shape)
  call check(status == TB_OK .and. ndim == 2 .and. all(shape(1:2) == [2, 4]), 'result shape')
  status = c_tb_buffer_copy_to_host(hout, c_loc(b), c_sizeof(b))
  call check(status == TB_OK .and. all(b == a), 'copy_to_host of the result')
  call c_tb_buffer_destroy(hout)
  status = c_tb_tensor_scatter_nd_min(ha, hi, hu, TB_OOB_DROP, c_null_ptr, hout)
  call check(status == TB_OK, 'min out of place: ' // message(status))
  call c_tb_buffer_destroy(hout)
  options%struct_size = c_sizeof(options)
  options%oob = TB_OOB_ERROR
  options%deterministic = 1
  status = c_tb_tensor_scatter_nd_add_in_place_ex(ha, hi, hu, options)
  call check(status == TB_OK .and. a(2, 1) == 2, 'add_in_place_ex: ' // message(status))
  status = c_tb_tensor_scatter_nd_add_in_place_ex(ha, hi, hu, options)
  call check(status == TB_OK .and. a(2, 1) == 3, 'add_in_place_ex again: ' // message(status))
  ! boolean_mask_update: the axis by value, from two sites (a is the tensor [2, 4]).
  mask = [.true., .false., .false., .true.]
  status = c_tb_buffer_borrow(c_loc(mask), TB_BOOL, 1_c_int, [4_c_int64_t], tb_device(0, 0), &
      1_c_int, c_null_ptr, hm)
  call check(status == TB_OK, 'borrow the mask: ' // message(status))
  status = c_tb_boolean_mask_update_in_place(ha, hm, hu, 1_c_int, c_null_ptr)
  call check(status == TB_OK .and. all(a(1, :) == 1) .and. all(a(4, :) == 2) .and. &
      a(2, 1) == 3, 'mask update over axis 1: ' // message(status))
  status = c_tb_boolean_mask_update_in_place(ha, hm, hu, 5_c_int, c_null_ptr)
  call check(status == TB_INVALID_ARGUMENT .and. index(message(status), 'Axis 5') > 0, &
      'mask update, axis 5: ' // message(status))
  call c_tb_buffer_destroy(hm)
  call c_tb_buffer_destroy(ha)
  call c_tb_buffer_destroy(hi)
  call c_tb_buffer_destroy(hu)
  call finish('raw calls')

contains

  subroutine borrow_all()
    status = c_tb_buffer_borrow(c_loc(a), TB_FLOAT32, 2_c_int, [2_c_int64_t, 4_c_int64_t], &
        tb_device(0, 0), 0_c_int, c_null_ptr, ha)
    call check(status == TB_OK, 'borrow a: ' // message(status))
    status = c_tb_buffer_borrow(c_loc(idx), TB_INT32, 2_c_int, [2_c_int64_t, 2_c_int64_t], &
        tb_device(0, 0), 1_c_int, c_null_ptr, hi)
    call check(status == TB_OK, 'borrow idx: ' // message(status))
    status = c_tb_buffer_borrow(c_loc(upd), TB_FLOAT32, 1_c_int, [2_c_int64_t], &
        tb_device(0, 0), 1_c_int, c_null_ptr, hu)
    call check(status == TB_OK, 'borrow upd: ' // message(status))
  end subroutine

  function message(status) result(text)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: text
    text = 'ok'
    if (status /= TB_OK) text = c_string(c_tb_last_error())
  end function

end program
