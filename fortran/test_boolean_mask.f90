! tb_boolean_mask, tb_boolean_mask_into and tb_compress over Fortran arrays (docs/fortran.md,
! docs/boolean_mask.md): the mask along a Fortran dim (default: a's last dims), each mask type,
! strided sections in and out, the into form's count and capacity, and what the wrappers refuse
! with out untouched (ctest fortran.boolean_mask). Expected values written out from the rule.
program test_boolean_mask
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  real(c_float) :: p(3, 2), col(3, 1), rows(2, 2), flat(4), two(1, 2), into(3, 4), short(2, 2)
  real(c_float) :: big(5, 2), wide(6)
  integer(c_int32_t) :: wrong_type(3, 1)
  integer(c_int64_t) :: n
  integer :: ierr

  ! p(i, j) = i + 3 (j - 1): the columns [1, 2, 3] and [4, 5, 6] (the tensor [2, 3]).
  p = reshape([1, 2, 3, 4, 5, 6], [3, 2])

  ! A mask of rank 1 covers a's last dim by default: the columns it selects.
  col = -1
  call tb_boolean_mask(p, [.false., .true.], col, ierr)
  call check(ierr == TB_OK .and. all(col == reshape([4, 5, 6], [3, 1])), 'default dim: ' // &
      message())
  ! dim = 1: the rows, as p([1, 3], :); an integer(c_int8_t) 0/1 mask.
  rows = -1
  call tb_boolean_mask(p, [1_c_int8_t, 0_c_int8_t, 1_c_int8_t], rows, ierr, dim=1)
  call check(ierr == TB_OK .and. all(rows == reshape([1, 3, 4, 6], [2, 2])), 'dim 1: ' // &
      message())
  ! A rank-2 mask over all of p: its true elements in array element order (p(mask)).
  flat = -1
  call tb_boolean_mask(p, p > 2.5, flat, ierr)
  call check(ierr == TB_OK .and. all(flat == [3, 4, 5, 6]), 'rank-2 mask: ' // message())
  ! logical(c_bool) mask on a strided section: p(1:3:2, :) is [1, 3; 4, 6]; its row 2.
  two = -1
  call tb_boolean_mask(p(1:3:2, :), [.false._c_bool, .true._c_bool], two, ierr, dim=1, &
      device=tb_device(0, 0), stream=c_null_ptr)
  call check(ierr == TB_OK .and. all(two == reshape([3, 6], [1, 2])), 'section in: ' // &
      message())
  ! Into a strided section of out (its rank must be the result's): wide(1:6:2) gets the
  ! elements 2, 3 and 4 of p, the rest of wide is untouched.
  wide = -1
  call tb_boolean_mask(p, [.false., .true., .true.], wide(1:6:3), ierr, dim=1)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(wide == -1), 'a rank-1 out for a rank-2 result')
  call check(message() == 'tb_boolean_mask: out has shape (2) but the result has shape (2, 2)', &
      'its message: ' // message())
  call tb_boolean_mask(p, p > 1.5 .and. p < 4.5, wide(1:6:2), ierr)
  call check(ierr == TB_OK .and. all(wide == [2.0, -1.0, 3.0, -1.0, 4.0, -1.0]), &
      'section out: ' // message())

  ! What tb_boolean_mask refuses, out untouched: a mask of another shape (C's text) ...
  col = -1
  call tb_boolean_mask(p, [.true., .false., .true.], col, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(col == -1), 'mask shape')
  call check(message() == 'tb_boolean_mask: Mask shape [3] is not compatible with the ' // &
      'required mask shape: [2]. (shapes in [] are tensor shapes: a Fortran array''s dims in ' // &
      'reverse order)', 'its message: ' // message())
  ! ... a mask that is not bool ...
  call tb_boolean_mask(p, [1.0_c_float, 0.0_c_float], col, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(col == -1), 'float mask')
  call check(message() == 'tb_boolean_mask: Mask must be of dtype bool, got float32.', &
      'its message: ' // message())
  ! ... a dim the mask does not fit from ...
  call tb_boolean_mask(p, [.true., .false.], col, ierr, dim=3)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(col == -1), 'dim 3')
  call check(message() == 'tb_boolean_mask: dim = 3 with a mask of rank 1 does not fit in ' // &
      'a, of rank 2 (the mask covers dims dim to dim + rank(mask) - 1)', 'its message: ' // &
      message())
  call tb_boolean_mask(p, p > 0, col, ierr, dim=2)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(col == -1), 'rank-2 mask from dim 2')
  ! ... out of another type or shape.
  wrong_type = -1
  call tb_boolean_mask(p, [.false., .true.], wrong_type, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(wrong_type == -1), 'int32 out')
  call check(message() == 'tb_boolean_mask: out is int32 but the result is float32 (out ' // &
      'must be real(c_float))', 'its message: ' // message())
  call tb_boolean_mask(p, [.true., .true.], col, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(col == -1), 'out of another shape')
  call check(message() == 'tb_boolean_mask: out has shape (3, 1) but the result has shape ' // &
      '(3, 2)', 'its message: ' // message())

  ! tb_boolean_mask_into: out's dim 2 holds up to 4 columns; 2 are written, the rest kept.
  into = -1
  call tb_boolean_mask_into(p, [.true., .true.], into, n, ierr)
  call check(ierr == TB_OK .and. n == 2 .and. all(into(:, 1:2) == p) .and. &
      all(into(:, 3:4) == -1), 'into: ' // message())
  ! Along dim 1 into a strided section of big: big(1:5:2, :) rows 1 and 2 get p(2, :), p(3, :).
  big = -1
  call tb_boolean_mask_into(p, [.false., .true., .true.], big(1:5:2, :), n, ierr, dim=1)
  call check(ierr == TB_OK .and. n == 2 .and. all(big(1, :) == [2, 5]) .and. &
      all(big(3, :) == [3, 6]) .and. all(big(2, :) == -1) .and. all(big(4:5, :) == -1), &
      'into a section: ' // message())
  ! No true entry: n = 0, out untouched.
  call tb_boolean_mask_into(p, [.false., .false.], into, n, ierr)
  call check(ierr == TB_OK .and. n == 0 .and. all(into(:, 1:2) == p), 'into none')
  ! out too small: 3 rows selected, room for 2. TB_OUT_OF_RANGE, count 3, the first 2 written.
  short = -1
  call tb_boolean_mask_into(p, [.true., .true., .true.], short, n, ierr, dim=1)
  call check(ierr == TB_OUT_OF_RANGE .and. n == 3 .and. all(short == p(1:2, :)), &
      'into a short out: ' // message())
  call check(message() == 'tb_boolean_mask_into: the mask selects 3 slices but dim 1 of ' // &
      'out holds 2 (out holds the first 2)', 'its message: ' // message())
  ! out whose other dims are not a's: C refuses it, out untouched.
  into = -1
  call tb_boolean_mask_into(p, [.true., .false., .true.], into, n, ierr, dim=1)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(into == -1), 'into out of another shape')
  call check(message() == 'tb_boolean_mask_into: out has shape [4,3]; boolean_mask_into ' // &
      'needs [2,C] for a capacity C (the mask''s dims replaced by one). (shapes in [] are ' // &
      'tensor shapes: a Fortran array''s dims in reverse order)', 'its message: ' // message())

  ! tb_compress: no dim is p's elements in array element order (the flattened tensor) ...
  flat = -1
  call tb_compress(p, [.false., .true., .false., .false., .true.], flat(1:2), ierr)
  call check(ierr == TB_OK .and. all(flat(1:2) == [2, 5]), 'compress flat: ' // message())
  ! ... dim 1 picks rows, a shorter condition is false past its end ...
  rows = -1
  call tb_compress(p, [.false., .true., .true.], rows, ierr, dim=1)
  call check(ierr == TB_OK .and. all(rows == reshape([2, 3, 5, 6], [2, 2])), &
      'compress dim 1: ' // message())
  col = -1
  call tb_compress(p, [.false., .true.], col, ierr, dim=2)
  call check(ierr == TB_OK .and. all(col == reshape([4, 5, 6], [3, 1])), 'compress dim 2')
  call tb_compress(p, [.true.], col, ierr, dim=2)
  call check(ierr == TB_OK .and. all(col == reshape([1, 2, 3], [3, 1])), 'compress short')
  ! ... and a true entry past the end of the dim is refused.
  col = -1
  call tb_compress(p, [.false., .true., .true.], col, ierr, dim=2)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(col == -1), 'compress long')
  call check(message() == 'tb_compress: condition(3) is true, past the end of dim 2 of a ' // &
      '(as a tensor: Condition entry 2 is true, but the axis has only 2 entries (condition ' // &
      'of length 3).)', 'its message: ' // message())
  call tb_compress(p, [.true.], col, ierr, dim=0)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == &
      'tb_compress: dim = 0 is not a dimension of a, of rank 2', 'compress dim 0: ' // message())
  call finish('boolean_mask')

contains

  function message() result(text)
    character(len=:), allocatable :: text
    call tb_get_last_error_message(text)
  end function

end program
