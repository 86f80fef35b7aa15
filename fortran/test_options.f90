! Every option of the wrappers, each its own optional argument: oob, deterministic,
! device and stream of the scatters; axis, broadcast, device and stream of boolean_mask_update;
! tb_borrow's cache_mirror; the older positional forms still working (ctest fortran.options).
program test_options
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  real(c_float) :: a(4, 2), out(4, 2), expected(4, 2), rows(4, 2)
  real(c_float), target :: host(3)
  integer(c_int32_t) :: idx(2, 3), bad(2, 1)
  integer(c_int32_t), target :: twice(1, 2)
  real(c_float), target :: tens(2)
  type(tb_device), target :: cpu, cuda0
  type(tb_scatter_options) :: options
  type(c_ptr) :: ha, hi, hu
  integer :: ierr
  integer(c_int) :: status
  logical(c_bool) :: rows_mask(2)

  cpu = tb_device(0, 0)
  cuda0 = tb_device(1, 0)
  idx = reshape([0, 0, 1, 3, 0, 0], [2, 3])   ! a(1, 1) twice and a(4, 2)
  bad = reshape([2, 0], [2, 1])               ! tensor row 2 of [2, 4]: outside

  ! The scatters: oob, deterministic, device and stream by keyword.
  a = 1
  call tb_tensor_scatter_nd_add_in_place(a, idx, [1.0_c_float, 2.0_c_float, 3.0_c_float], &
      ierr, oob=TB_OOB_ERROR, deterministic=.true., device=cpu, stream=c_null_ptr)
  expected = 1
  expected(1, 1) = 5
  expected(4, 2) = 3
  call check(ierr == TB_OK .and. all(a == expected), 'add with every option: ' // message())
  call tb_tensor_scatter_nd_add_in_place(a, bad, [9.0_c_float], ierr, oob=TB_OOB_DROP, &
      deterministic=.false.)
  call check(ierr == TB_OK .and. all(a == expected), 'oob=TB_OOB_DROP drops the row')
  call tb_tensor_scatter_nd_add_in_place(a, bad, [9.0_c_float], ierr, oob=TB_OOB_ERROR, &
      device=cpu)
  call check(ierr == TB_INVALID_ARGUMENT, 'oob=TB_OOB_ERROR fails')
  call check(index(message(), 'tb_tensor_scatter_nd_add_in_place: the index tuple') == 1, &
      'the wrapper names itself, not the _ex function: ' // message())
  call check(all(a == expected), 'a failed call leaves a alone')
  ! The older positional form: ierr, then oob.
  call tb_tensor_scatter_nd_sub_in_place(a, bad, [9.0_c_float], ierr, TB_OOB_DROP)
  call check(ierr == TB_OK .and. all(a == expected), 'positional oob')
  out = -1
  call tb_tensor_scatter_nd_max(a, idx, [7.0_c_float, 0.0_c_float, 0.0_c_float], out, ierr, &
      TB_OOB_ERROR, .true., cpu)
  expected(1, 1) = 7
  call check(ierr == TB_OK .and. all(out == expected), 'max out of place, positional options')

  ! device = cuda:0: runs there, or (no usable GPU) TB_UNAVAILABLE with the reason, a unchanged.
  a = 1
  call tb_tensor_scatter_nd_add_in_place(a, idx, [1.0_c_float, 2.0_c_float, 3.0_c_float], &
      ierr, device=cuda0)
  expected = 1
  expected(1, 1) = 5
  expected(4, 2) = 3
  if (ierr == TB_OK) then
    call check(all(a == expected), 'add on cuda:0')
  else
    call check(ierr == TB_UNAVAILABLE .and. all(a == 1), 'add on cuda:0 without a GPU')
    call check(index(message(), 'tb_tensor_scatter_nd_add_in_place: CUDA requested but ' // &
        'unavailable') == 1, 'its message: ' // message())
  end if
  call tb_boolean_mask_update_in_place(a, a > 100, 0.0_c_float, ierr, device=cuda0)
  call check(ierr == TB_OK .or. ierr == TB_UNAVAILABLE .and. index(message(), &
      'tb_boolean_mask_update_in_place: CUDA requested') == 1, 'mask on cuda:0: ' // message())

  ! boolean_mask_update: axis and broadcast apart. a(4, 2) is the tensor [2, 4]; axis 0 masks
  ! its rows (the Fortran columns a(:, j)).
  a = reshape([1, 2, 3, 4, 5, 6, 7, 8], [4, 2])
  rows_mask = [.false., .true.]
  call tb_boolean_mask_update_in_place(a, rows_mask, 0.0_c_float, ierr, axis=0, &
      broadcast=.true., device=cpu, stream=c_null_ptr)
  call check(ierr == TB_OK .and. all(a(:, 1) == [1, 2, 3, 4]) .and. all(a(:, 2) == 0), &
      'axis 0, a scalar broadcast: ' // message())
  call tb_boolean_mask_update_in_place(a, rows_mask, 9.0_c_float, ierr, broadcast=.false.)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(a(:, 2) == 0), &
      'broadcast=.false.: a scalar is not the masked shape')
  rows = reshape([1, 1, 1, 1, 2, 2, 2, 2], [4, 2])
  call tb_boolean_mask_update(a, rows_mask, rows(:, 2:2), out, ierr, 0, .false.)
  call check(ierr == TB_OK .and. all(out(:, 2) == 2) .and. all(out(:, 1) == a(:, 1)), &
      'broadcast=.false. with updates of the masked shape [1, 4]: ' // message())
  call tb_boolean_mask_update_in_place(a, a > 3, 0.0_c_float, ierr, 0)
  call check(ierr == TB_OK .and. all(a(:, 1) == [1, 2, 3, 0]), 'positional axis')

  ! tb_borrow's cache_mirror, and c_tb_buffer_note_external_write.
  host = [1, 2, 3]
  call tb_borrow(host, ha, cache_mirror=.true., ierr=ierr)
  call check(ierr == TB_OK, 'tb_borrow with cache_mirror: ' // message())
  call check(c_tb_buffer_note_external_write(ha) == TB_OK, 'c_tb_buffer_note_external_write')
  call c_tb_buffer_destroy(ha)

  ! The raw _ex call with options%device.
  host = [1, 2, 3]
  call tb_borrow(host, ha)
  twice = 1                        ! two tuples of one coordinate: [1], [1]
  tens = [10, 20]
  call tb_borrow(twice, hi, read_only=.true.)
  call tb_borrow(tens, hu, read_only=.true.)
  options%struct_size = c_sizeof(options)
  options%device = c_loc(cpu)
  status = c_tb_tensor_scatter_nd_add_in_place_ex(ha, hi, hu, options)
  call check(status == TB_OK .and. all(host == [1, 32, 3]), 'raw _ex with device cpu')
  options%device = c_loc(cuda0)
  status = c_tb_tensor_scatter_nd_add_in_place_ex(ha, hi, hu, options)
  call check(status == TB_OK .or. status == TB_UNAVAILABLE, 'raw _ex with device cuda:0')
  call c_tb_buffer_destroy(ha)
  call c_tb_buffer_destroy(hi)
  call c_tb_buffer_destroy(hu)
  call finish('options')

contains

  function message() result(text)
    character(len=:), allocatable :: text
    call tb_get_last_error_message(text)
  end function

end program
