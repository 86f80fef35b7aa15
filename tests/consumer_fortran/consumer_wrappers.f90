! A program that uses only the tensorbuf_f wrappers (no c_tb_* call, so it needs no symbol of
! libtensorbuf itself): linked with --as-needed, the linker drops libtensorbuf from it, and
! libtensorbuf_f must find it on its own (its RUNPATH) for the program to start.
program consumer_wrappers
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  implicit none
  real(c_float) :: a(4, 2), g(2, 2), picked(2), y(2, 2)
  integer(c_int8_t) :: image(2, 2)
  type(tb_processor) :: p
  integer :: ierr
  a = 1
  call tb_tensor_scatter_nd_add_in_place(a, reshape([1_c_int32_t, 3_c_int32_t], [2, 1]), &
      [10.0_c_float], ierr)
  if (ierr /= TB_OK .or. a(4, 2) /= 11 .or. sum(a) /= 18) then
    print '(a)', 'FAILED: ' // tb_last_error_message()
    error stop 1
  end if
  call tb_boolean_mask_update_in_place(a(2:4:2, :), a(2:4:2, :) > 5, 0.0_c_float, ierr)
  if (ierr /= TB_OK .or. a(4, 2) /= 0 .or. count(a == 1) /= 7) then
    print '(a)', 'FAILED: mask update on a section ' // tb_last_error_message()
    error stop 1
  end if
  ! Rows 3 and 1 of the section a(1:3:2, :) (its rows 1 and 2 are a's rows 1 and 3).
  a = reshape([1, 2, 3, 4, 5, 6, 7, 8], [4, 2])
  g = -1
  call tb_gather(a(1:3:2, :), [2, 1], g, ierr, dim=1)
  if (ierr /= TB_OK .or. any(g /= reshape([3, 1, 7, 5], [2, 2]))) then
    print '(a)', 'FAILED: gather of a section ' // tb_last_error_message()
    error stop 1
  end if
  ! The section a(1:3:2, :) is [1 5; 3 7]: its entries above 4, in column order, are 5 and 7.
  picked = -1
  call tb_boolean_mask(a(1:3:2, :), a(1:3:2, :) > 4, picked, ierr)
  if (ierr /= TB_OK .or. any(picked /= [5, 7])) then
    print '(a)', 'FAILED: boolean_mask of a section ' // tb_last_error_message()
    error stop 1
  end if
  ! A Processor (per-channel normalize along dim 1) over image bytes read as uint8.
  image = reshape(int([0, -56, 10, 20], c_int8_t), [2, 2])
  call p%create(tb_normalize_op([0.0_c_float, 100.0_c_float], [2.0_c_float, 4.0_c_float]), &
      ierr=ierr)
  if (ierr == TB_OK) call p%run(image, y, ierr, unsigned=.true.)
  if (ierr /= TB_OK .or. any(y /= reshape([0.0, 25.0, 5.0, -20.0], [2, 2]))) then
    print '(a)', 'FAILED: processor ' // tb_last_error_message()
    error stop 1
  end if
  call p%destroy()
  print '(a)', 'consumer_wrappers: ok'
end program
