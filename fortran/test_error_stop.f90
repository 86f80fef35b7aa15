! Without ierr, a failing wrapper stops the program with the message (ctest
! fortran.error_stop expects it in the output).
program test_error_stop
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  implicit none
  real(c_float) :: a(4)
  a = 0
  call tb_tensor_scatter_nd_add_in_place(a, [9_c_int32_t], 1.0_c_float)
  print '(a)', 'not reached'
end program
