! tb_processor over Fortran arrays and buffer handles (docs/processing.md "From Fortran"): an
! image's uint8 bytes normalized per channel, chains against float32 arithmetic written here,
! a strided out, casts, run_into / run_buffer on handles (float16 bit patterns), output_type and
! step_count, the errors with their messages and out unchanged, destroy and the finalizer
! (ctest fortran.processor).
module test_processor_scopes
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  implicit none
contains
  ! Leaves a created processor in a local variable of each kind; returns their handles.
  subroutine scoped(plain_handle, allocatable_handle)
    type(c_ptr), intent(out) :: plain_handle, allocatable_handle
    type(tb_processor) :: plain
    type(tb_processor), allocatable :: held
    allocate(held)
    call plain%create([tb_normalize_op(1.0_c_float, 2.0_c_float)])
    call held%create([tb_normalize_op(1.0_c_float, 2.0_c_float)])
    plain_handle = plain%handle
    allocatable_handle = held%handle
  end subroutine
end module

program test_processor
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  use test_processor_scopes
  implicit none
  type(tb_processor) :: p, chain, post, pre, half, stale_check
  type(tb_step) :: chain_steps(2)
  integer(c_int8_t) :: image(3, 2), logits(3), quantized(5)
  integer(c_int32_t) :: pixels(3, 256)
  real(c_float) :: y(3, 2), wide(2, 3), expected(3, 2), normalized(3, 256), scores(6)
  real(c_float) :: xf(4), means(3), stddevs(3)
  real(c_float), target :: back(4)
  real(c_double) :: y64(3, 256), wrong(3, 2)
  integer(c_int16_t), target :: half_bits(4)
  type(c_ptr) :: hx, hout, hnew, saved, plain_handle, allocatable_handle
  integer(c_int64_t) :: steps
  integer(c_int) :: dtype
  integer :: ierr, c, j

  ! An image's bytes [0, 64, 255, 10, 20, 30] (a Fortran integer(c_int8_t) holds 255 as -1):
  ! image(3, 2) is 2 pixels of 3 channels, the tensor [2, 3]; channels are the first dimension.
  image = reshape(int([0, 64, -1, 10, 20, 30], c_int8_t), [3, 2])
  call p%create(tb_normalize_op([1.0_c_float, 2.0_c_float, 3.0_c_float], &
      [2.0_c_float, 4.0_c_float, 8.0_c_float]), ierr=ierr)
  call check(ierr == TB_OK, 'create: ' // message())
  y = -7
  call p%run(image, y, ierr, unsigned=.true.)
  ! (0-1)/2, (64-2)/4, (255-3)/8, (10-1)/2, (20-2)/4, (30-3)/8
  call check(ierr == TB_OK .and. all(y == reshape([-0.5, 15.5, 31.5, 4.5, 4.5, 3.375], [3, 2])), &
      'uint8 image: ' // message())
  ! Without unsigned the bytes are int8: -1 gives (-1-3)/8.
  call p%run(image, y, ierr)
  call check(ierr == TB_OK .and. y(3, 1) == -0.5, 'int8 image')
  call check(p%output_type(TB_UINT8) == TB_FLOAT32 .and. p%step_count() == 1, &
      'output_type, step_count')

  ! ImageNet's means and stddevs on every value 0..255 of each channel, to float32 and float64.
  means = [123.675_c_float, 116.28_c_float, 103.53_c_float]
  stddevs = [58.395_c_float, 57.12_c_float, 57.375_c_float]
  do j = 1, 256
    do c = 1, 3
      pixels(c, j) = j - 1
      normalized(c, j) = (real(j - 1, c_float) - means(c)) / stddevs(c)
    end do
  end do
  ! The array form, from a named array.
  chain_steps(1) = tb_normalize_op(means, stddevs)
  chain_steps(2) = tb_cast_op(TB_FLOAT64)
  call chain%create(chain_steps, ierr)
  call check(ierr == TB_OK, 'chain create: ' // message())
  call chain%run(pixels, y64, ierr)
  call check(ierr == TB_OK .and. all(y64 == real(normalized, c_double)), &
      'int32 -> normalize -> float64: ' // message())
  call check(chain%output_type(TB_INT32) == TB_FLOAT64 .and. chain%step_count() == 2, &
      'chain output_type, step_count')

  ! A model's int8 output dequantized (zero point -3, scale 0.25: (q + 3) / 4) into a strided
  ! section; the other elements are untouched.
  call post%create([tb_dequantize_op(-3.0_c_float, 0.25_c_float)])
  logits = int([-128, -3, 1], c_int8_t)
  scores = 9
  call post%run(logits, scores(1:6:2), ierr)
  call check(ierr == TB_OK .and. all(scores == [-31.25, 9.0, 0.0, 9.0, 1.0, 9.0]), &
      'dequantize into a section: ' // message())

  ! quantize(0, 1/64) = x * 64, then int8 (saturating): 128 -> 127.
  call pre%create(tb_quantize_op(0.0_c_float, 0.015625_c_float), tb_cast_op(TB_INT8))
  quantized = 0
  call pre%run([-1.0_c_float, 0.0_c_float, 0.5_c_float, 1.0_c_float, 2.0_c_float], quantized, ierr)
  call check(ierr == TB_OK .and. all(quantized == int([-64, 0, 32, 64, 127], c_int8_t)), &
      'quantize -> int8: ' // message())

  ! Buffer handles: into a float16 buffer (no Fortran type), and a new buffer.
  xf = [1, 3, 5, 7]
  call half%create([tb_normalize_op(1.0_c_float, 2.0_c_float), tb_cast_op(TB_FLOAT16)])
  call tb_borrow(xf, hx)
  call check(c_tb_buffer_create(TB_FLOAT16, 1, [4_c_int64_t], hout) == TB_OK, 'float16 buffer')
  call half%run_into(hx, hout, ierr)
  half_bits = -1
  call check(ierr == TB_OK, 'run_into: ' // message())
  call check(c_tb_buffer_copy_to_host(hout, c_loc(half_bits), 8_c_size_t) == TB_OK, 'copy')
  ! 0, 1, 2, 3 in float16: 0x0000, 0x3c00, 0x4000, 0x4200.
  call check(all(half_bits == int([0, 15360, 16384, 16896], c_int16_t)), 'float16 bits')
  call post%destroy()
  call post%create([tb_normalize_op(1.0_c_float, 2.0_c_float)])
  call post%run_buffer(hx, hnew, ierr, device=tb_device(0, 0), stream=c_null_ptr)
  call check(ierr == TB_OK .and. c_tb_buffer_dtype(hnew, dtype) == TB_OK, 'run_buffer: ' // message())
  ! (The copy first, on its own: the compiler may read back before a call in the same
  ! expression writes it through c_loc.)
  call check(c_tb_buffer_copy_to_host(hnew, c_loc(back), 16_c_size_t) == TB_OK, 'copy')
  call check(dtype == TB_FLOAT32 .and. all(back == [0, 1, 2, 3]), 'run_buffer values')
  call c_tb_buffer_destroy(hnew)
  call half%run_into(hx, hx, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == 'tb_processor%run_into: ' // &
      'Processor::run_into: out has dtype float32; the chain gives float16 for a float32 input', &
      'run_into a float32 buffer: ' // message())
  call c_tb_buffer_destroy(hout)
  call c_tb_buffer_destroy(hx)

  ! Errors, out unchanged: its type, its shape, a channel count that is not x's first dimension.
  wrong = 5
  call p%run(image, wrong, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(wrong == 5), 'out of the wrong type')
  call check(message() == 'tb_processor%run: out is float64 but the chain gives float32 for ' // &
      'x of int8 (out must have the shape of x and the type the chain gives for x)', message())
  wide = 5
  call p%run(image, wide, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(wide == 5), 'out of the wrong shape')
  call check(message() == 'tb_processor%run: out has shape (2, 3) but x has shape (3, 2) ' // &
      '(out must have the shape of x and the type the chain gives for x)', message())
  call p%run(reshape(image, [2, 3]), wide, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(wide == 5), 'channels')
  call check(message() == 'tb_processor%run: Processor step 0 (normalize): 3 means (stddevs) ' // &
      'for a last axis of shape [3,2]: the number of channels must equal the size of the last ' // &
      'axis (shapes in [] are tensor shapes: a Fortran array''s dims in reverse order)', message())

  ! create's errors, by the step's Fortran index; p then holds no processor.
  saved = p%handle
  call p%create([tb_normalize_op(1.0_c_float, 2.0_c_float), &
      tb_normalize_op(1.0_c_float, 0.0_c_float)], ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == &
      'tb_processor%create: steps(2): normalize: stddev cannot be zero', message())
  call check(c_tb_processor_step_count(saved, steps) == TB_INVALID_ARGUMENT, &
      'create destroyed the processor p held')
  y = -7
  call p%run(image, y, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(y == -7) .and. message() == &
      'tb_processor%run: the processor was not created (call its create first) or was destroyed', &
      message())
  call p%create(tb_normalize_op(means, stddevs(1:2)), ierr=ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == &
      'tb_processor%create: steps(1) has 3 means and 2 stddevs (per channel, one of each)', message())
  call p%create([tb_cast_op(42_c_int)], ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == &
      'tb_processor%create: steps(1): unknown tb_dtype 42', message())
  call p%create(tb_normalize_op(means, means), tb_normalize_op(means(1:2), means(1:2)), &
      ierr=ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. message() == 'tb_processor%create: Processor: ' // &
      'step 1 (normalize) has 2 channels and step 0 (normalize) 3: no last axis fits both', message())
  steps = p%step_count(ierr)
  call check(steps == -1 .and. ierr == TB_INVALID_ARGUMENT, 'step_count of none')
  dtype = p%output_type(TB_INT8, ierr)
  call check(dtype == -1 .and. ierr == TB_INVALID_ARGUMENT, 'output_type of none')
  ! The empty chain: the identity (out a copy of x).
  call p%create([tb_step ::], ierr)
  expected = reshape([1, 2, 3, 4, 5, 6], [3, 2])
  y = -7
  call p%run(expected, y, ierr)
  call check(ierr == TB_OK .and. all(y == expected) .and. p%step_count() == 0, 'empty chain')

  ! destroy, then the handle is dead; the finalizer of a local variable.
  saved = chain%handle
  call chain%destroy()
  call check(.not. c_associated(chain%handle) .and. &
      c_tb_processor_step_count(saved, steps) == TB_INVALID_ARGUMENT, 'destroy')
  call chain%destroy()   ! nothing
  call scoped(plain_handle, allocatable_handle)
  call check(c_tb_processor_step_count(allocatable_handle, steps) == TB_INVALID_ARGUMENT, &
      'an allocatable local is finalized')
  stale_check%handle = plain_handle
  steps = stale_check%step_count(ierr)
  call check(steps == -1 .and. ierr == TB_INVALID_ARGUMENT .and. &
      message() == 'tb_processor%step_count: processor is a destroyed or invalid handle', &
      'a plain local is finalized: ' // message())
  stale_check%handle = c_null_ptr
  call finish('test_processor')

contains

  function message()
    character(len=:), allocatable :: message
    call tb_get_last_error_message(message)
  end function

end program
