! tb_normalize, tb_quantize, tb_dequantize, tb_cast, tb_quantize_linear and tb_dequantize_linear
! over Fortran arrays (docs/fortran.md, docs/processing.md): channels along Fortran dim 1, uint8
! through `unsigned`, 16-bit floats as bits through `half`, the linear ops' dim, strided sections,
! and what the wrappers refuse with out untouched (ctest fortran.process_ops). The expected
! values are computed here in float32 arithmetic, or written out from the rule.
program test_process_ops
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  real(c_float) :: x(3, 2), y(3, 2), big(5, 2), m(3), s(3), v(6), f(6), q(2, 3), d(4)
  real(c_float) :: expected(3, 2)
  real(c_double) :: dq(2)
  integer(c_int8_t) :: pixels(3, 2), bytes(6), i8(6), q8(2, 3), b8(3, 2)
  integer(c_int16_t) :: h(3)
  integer(c_int32_t) :: i32(6)
  logical(c_bool) :: flags(3)
  integer :: ierr, i, j

  ! x(i, j): channel i of pixel j (the tensor [2, 3]: 2 pixels of 3 channels).
  x = reshape([0, 64, 255, 10, 20, 30], [3, 2])
  m = [1, 2, 3]
  s = [2, 4, 8]

  ! Scalar normalize: (x - 1) / 2 in float32.
  y = -1
  call tb_normalize(x, 1.0_c_float, 2.0_c_float, y, ierr)
  call check(ierr == TB_OK .and. all(y == (x - 1.0_c_float) / 2.0_c_float), 'normalize: ' // &
      message())
  ! Per channel along Fortran dim 1: y(i, j) = (x(i, j) - m(i)) / s(i).
  do j = 1, 2
    do i = 1, 3
      expected(i, j) = (x(i, j) - m(i)) / s(i)
    end do
  end do
  call tb_normalize(x, m, s, y, ierr)
  call check(ierr == TB_OK .and. all(y == expected), 'normalize channels: ' // message())
  ! A strided x (big(1:5:2, :) holds x) into a strided out (big's other rows stay).
  big = 7
  big(1:5:2, :) = x
  y = -1
  call tb_normalize(big(1:5:2, :), m, s, y, ierr)
  call check(ierr == TB_OK .and. all(y == expected), 'normalize section in: ' // message())
  call tb_normalize(x, m, s, big(1:5:2, :), ierr)
  call check(ierr == TB_OK .and. all(big(1:5:2, :) == expected) .and. all(big(2:4:2, :) == 7), &
      'normalize section out: ' // message())
  ! uint8 pixels in integer(c_int8_t), the bytes of 0, 200, 255, 1, 128, 127 (200 is stored as
  ! -56): `unsigned` reads them as 0..255.
  pixels = reshape(int([0, -56, -1, 1, -128, 127], c_int8_t), [3, 2])
  call tb_normalize(pixels, 127.5_c_float, 127.5_c_float, y, ierr, unsigned=.true.)
  call check(ierr == TB_OK .and. all(y == (real(iand(int(pixels), 255), c_float) - &
      127.5_c_float) / 127.5_c_float), 'normalize uint8: ' // message())
  ! Without it they are int8.
  call tb_normalize(pixels, 0.5_c_float, 2.0_c_float, y, ierr)
  call check(ierr == TB_OK .and. all(y == (real(pixels, c_float) - 0.5_c_float) / 2.0_c_float), &
      'normalize int8: ' // message())
  ! The identity (mean 0, stddev 1) keeps x's dtype: uint8 into integer(c_int8_t) ...
  b8 = 0
  call tb_normalize(pixels, 0.0_c_float, 1.0_c_float, b8, ierr, unsigned=.true.)
  call check(ierr == TB_OK .and. all(b8 == pixels), 'normalize identity: ' // message())
  ! ... and a real out is refused, out untouched.
  y = -1
  call tb_normalize(pixels, 0.0_c_float, 1.0_c_float, y, ierr, unsigned=.true.)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(y == -1), 'identity into real')
  call check(message() == 'tb_normalize: out is float32 but the result is uint8 (out must ' // &
      'be integer(c_int8_t), its bytes)', 'its message: ' // message())
  ! normalize's own errors, in C's words under the wrapper's name.
  call tb_normalize(x, 1.0_c_float, 0.0_c_float, y, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(y == -1), 'stddev 0')
  call check(message() == 'tb_normalize: normalize: stddev cannot be zero', 'its message: ' // &
      message())
  call tb_normalize(x, [1.0_c_float, 2.0_c_float], [1.0_c_float, 1.0_c_float], y, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(y == -1), '2 channels for 3')
  call check(message() == 'tb_normalize: 2 means (stddevs) for dim 1 of x(3, 2) (as a ' // &
      'tensor: normalize: 2 means (stddevs) for a last axis of shape [2,3]: the number of ' // &
      'channels must equal the size of the last axis)', 'its message: ' // message())
  call tb_normalize(x, m, [1.0_c_float], y, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(y == -1) .and. &
      message() == 'tb_normalize: mean has 3 values but stddev 1', 'lengths: ' // message())
  call tb_normalize(x, m, 1.0_c_float, y, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(y == -1) .and. message() == &
      'tb_normalize: mean and stddev must be both scalars or both rank-1 arrays', &
      'ranks: ' // message())
  call tb_normalize(x, 1.0_c_float, 2.0_c_float, y(1:2, :), ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(y == -1) .and. message() == &
      'tb_normalize: out has shape (2, 2) but the result has shape (3, 2)', 'shape: ' // message())

  ! quantize(zero_point 2, scale 0.5) is normalize(x, -2 * 0.5, 0.5).
  call tb_quantize(x, 2.0_c_float, 0.5_c_float, y, ierr)
  call check(ierr == TB_OK .and. all(y == (x - (-1.0_c_float)) / 0.5_c_float), 'quantize: ' // &
      message())
  ! dequantize(zero_point 128, scale 0.5) of uint8 is normalize(x, 128, 1 / 0.5).
  call tb_dequantize(pixels, 128.0_c_float, 0.5_c_float, y, ierr, unsigned=.true.)
  call check(ierr == TB_OK .and. all(y == (real(iand(int(pixels), 255), c_float) - &
      128.0_c_float) / 2.0_c_float), 'dequantize: ' // message())

  ! cast: float32 -> int32 truncates toward zero; -> uint8 also saturates (bytes in int8).
  v = [1.5, -2.7, 300.9, 0.0, 255.0, -0.5]
  call tb_cast(v, TB_INT32, i32, ierr)
  call check(ierr == TB_OK .and. all(i32 == [1, -2, 300, 0, 255, 0]), 'cast int32: ' // message())
  call tb_cast(v, TB_UINT8, bytes, ierr)
  call check(ierr == TB_OK .and. all(bytes == int([1, 0, -1, 0, -1, 0], c_int8_t)), &
      'cast uint8: ' // message())
  ! Back from uint8 bytes with `unsigned`: 255 is 255.
  call tb_cast(bytes, TB_FLOAT32, f, ierr, unsigned=.true.)
  call check(ierr == TB_OK .and. all(f == [1, 0, 255, 0, 255, 0]), 'cast from uint8: ' // &
      message())
  ! float16 and bfloat16 results are their bits in integer(c_int16_t): 1.5 = 0x3E00,
  ! -2.5 = 0xC100, 1 = 0x3C00; bfloat16 1.5 = 0x3FC0.
  call tb_cast([1.5_c_float, -2.5_c_float, 1.0_c_float], TB_FLOAT16, h, ierr)
  call check(ierr == TB_OK .and. all(h == int([15872, -16128, 15360], c_int16_t)), &
      'cast float16: ' // message())
  call tb_cast(h, TB_FLOAT32, f(1:3), ierr, half=TB_FLOAT16)
  call check(ierr == TB_OK .and. all(f(1:3) == [1.5, -2.5, 1.0]), 'cast from float16: ' // &
      message())
  call tb_cast([1.5_c_float], TB_BFLOAT16, h(1:1), ierr)
  call check(ierr == TB_OK .and. h(1) == 16320_c_int16_t, 'cast bfloat16: ' // message())
  ! -> bool: nonzero is true.
  call tb_cast([0.0_c_float, -0.5_c_float, 2.0_c_float], TB_BOOL, flags, ierr)
  call check(ierr == TB_OK .and. all(flags .eqv. [.false._c_bool, .true._c_bool, .true._c_bool]), &
      'cast bool: ' // message())
  ! Refused: an out of another type than the dtype's holder, a bad half, a dtype out of range.
  i32 = -1
  call tb_cast(v, TB_FLOAT16, i32, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(i32 == -1) .and. message() == &
      'tb_cast: out is int32 but the result is float16 (out must be integer(c_int16_t), its ' // &
      'bits)', 'cast float16 into int32: ' // message())
  call tb_cast(h, TB_FLOAT32, f(1:3), ierr, half=TB_INT16)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == &
      'tb_cast: half = 3 is neither TB_FLOAT16 nor TB_BFLOAT16', 'half: ' // message())
  call tb_cast(v, 42_c_int, i32, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(i32 == -1) .and. &
      message() == 'tb_cast: unknown tb_dtype 42', 'dtype 42: ' // message())

  ! quantize_linear per tensor, round half to even, saturating: x / 0.5 = [0.5, 1.5, 2.5,
  ! -0.5, 600, -600] rounds to [0, 2, 2, 0, 600, -600]; + 1, into int8.
  v = [0.25, 0.75, 1.25, -0.25, 300.0, -300.0]
  call tb_quantize_linear(v, 0.5_c_float, 1_c_int8_t, i8, ierr)
  call check(ierr == TB_OK .and. all(i8 == int([1, 3, 3, 1, 127, -128], c_int8_t)), &
      'quantize_linear int8: ' // message())
  ! A uint8 zero point (128, stored as -128) with `unsigned`: [128, 130, 130, 128, 255, 0].
  call tb_quantize_linear(v, [0.5_c_float], [int(-128, c_int8_t)], i8, ierr, unsigned=.true.)
  call check(ierr == TB_OK .and. all(i8 == int([-128, -126, -126, -128, -1, 0], c_int8_t)), &
      'quantize_linear uint8: ' // message())
  ! Per axis along dim 2 of q(2, 3): q8(i, j) = x(i, j) / scale(j) + zero_point(j).
  q = reshape([1.0, 3.0, 4.0, 6.0, 8.0, -8.0], [2, 3])
  call tb_quantize_linear(q, [1.0_c_float, 2.0_c_float, 4.0_c_float], &
      [0_c_int8_t, 1_c_int8_t, -1_c_int8_t], q8, ierr, dim=2)
  call check(ierr == TB_OK .and. all(q8 == reshape(int([1, 3, 3, 4, 1, -3], c_int8_t), [2, 3])), &
      'quantize_linear dim 2: ' // message())
  ! The default is ONNX's axis 1, i.e. Fortran dim rank - 1 = 1 here: scale(i) along rows.
  call tb_quantize_linear(q, [1.0_c_float, 2.0_c_float], [0_c_int8_t, 0_c_int8_t], q8, ierr)
  call check(ierr == TB_OK .and. all(q8 == reshape(int([1, 2, 4, 3, 8, -4], c_int8_t), [2, 3])), &
      'quantize_linear default dim: ' // message())
  ! A strided x.
  call tb_quantize_linear(v(1:6:2), 0.5_c_float, 0_c_int8_t, i8(1:3), ierr)
  call check(ierr == TB_OK .and. all(i8(1:3) == int([0, 2, 127], c_int8_t)), &
      'quantize_linear section: ' // message())
  ! Refused: a dim outside x, a per-axis scale of the wrong length, an out of another type.
  q8 = 9
  call tb_quantize_linear(q, [1.0_c_float, 2.0_c_float], [0_c_int8_t, 0_c_int8_t], q8, ierr, &
      dim=3)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(q8 == 9) .and. message() == &
      'tb_quantize_linear: dim = 3 is not a dimension of x, of rank 2', 'dim 3: ' // message())
  call tb_quantize_linear(q, [1.0_c_float, 2.0_c_float], [0_c_int8_t, 0_c_int8_t], q8, ierr, &
      dim=2)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(q8 == 9) .and. &
      message() == 'tb_quantize_linear: 2 scales for dim 2 of x(2, 3) (as a tensor: ' // &
      'quantize_linear: 2 scales for axis 0 of x of shape [3,2])', 'scale length: ' // message())
  call tb_quantize_linear(q, 1.0_c_float, 0_c_int8_t, q, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == 'tb_quantize_linear: out is ' // &
      'float32 but the result is int8 (out must be integer(c_int8_t))', 'out type: ' // message())

  ! dequantize_linear: (x - 1) * 0.5 of int8; of uint8 with `unsigned`; a float64 scale gives
  ! float32 too, and a float64 out is refused.
  call tb_dequantize_linear(int([-128, 0, 5, 127], c_int8_t), 0.5_c_float, 1_c_int8_t, d, ierr)
  call check(ierr == TB_OK .and. all(d == [-64.5, -0.5, 2.0, 63.0]), 'dequantize_linear: ' // &
      message())
  call tb_dequantize_linear(int([-1, 0], c_int8_t), 0.5_c_double, int(-128, c_int8_t), d(1:2), &
      ierr, unsigned=.true.)
  call check(ierr == TB_OK .and. all(d(1:2) == [63.5, -64.0]), 'dequantize_linear uint8: ' // &
      message())
  dq = -1
  call tb_dequantize_linear(int([-1, 0], c_int8_t), 0.5_c_double, 0_c_int8_t, dq, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(dq == -1) .and. message() == &
      'tb_dequantize_linear: out is float64 but the result is float32 (out must be ' // &
      'real(c_float))', 'float64 out: ' // message())
  ! Refused: a zero point of another type than x.
  d = -1
  call tb_dequantize_linear(int([1, 2, 3, 4], c_int8_t), 0.5_c_float, 1_c_int32_t, d, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(d == -1) .and. &
      message() == 'tb_dequantize_linear: dequantize_linear: zero_point must have x''s dtype ' // &
      'int8, got int32', 'zero point type: ' // message())
  call finish('process_ops')

contains

  function message() result(text)
    character(len=:), allocatable :: text
    call tb_get_last_error_message(text)
  end function

end program
