! tensorbuf_c: the bind(c) interfaces of the tensorbuf C API (<tensorbuf/c_api.h>,
! spec/interop.md I4): c_tb_<name> is the C function tb_<name>, with its constants and option
! structs. Use the module tensorbuf_f, which re-exports all of this with the array wrappers.
! The constants and struct sizes are checked against the C header (ctest fortran.constants);
! each scatter combine's interfaces come from the op table (scatter_c.f90.in, CMakeLists.txt).
module tensorbuf_c
  use, intrinsic :: iso_c_binding
  implicit none
  private

  integer(c_int), parameter, public :: TB_OK = 0, TB_INVALID_ARGUMENT = 1, TB_OUT_OF_RANGE = 2, &
      TB_UNAVAILABLE = 3, TB_RESOURCE_EXHAUSTED = 4, TB_INTERNAL = 5
  integer(c_int), parameter, public :: TB_BOOL = 0, TB_UINT8 = 1, TB_INT8 = 2, TB_INT16 = 3, &
      TB_INT32 = 4, TB_INT64 = 5, TB_FLOAT16 = 6, TB_BFLOAT16 = 7, TB_FLOAT32 = 8, TB_FLOAT64 = 9
  integer(c_int), parameter, public :: TB_OOB_DEFAULT = 0, TB_OOB_ERROR = 1, TB_OOB_DROP = 2
  integer(c_int), parameter, public :: TB_UNIT_BYTE = 0, TB_UNIT_UTF8_CHAR = 1
  integer(c_int), parameter, public :: TB_MAX_NDIM = 8
  integer(c_int), parameter, public :: TB_REDUCTION_NONE = 0, TB_REDUCTION_ADD = 1, &
      TB_REDUCTION_MUL = 2, TB_REDUCTION_MIN = 3, TB_REDUCTION_MAX = 4

  type, bind(c), public :: tb_device
    integer(c_int) :: kind = 0, index = 0
  end type
  ! Option structs: `device` is c_loc of a type(tb_device), target (c_null_ptr: where the
  ! first input lives).
  type, bind(c), public :: tb_scatter_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: oob = 0
    integer(c_int) :: deterministic = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_mask_update_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: axis = 0
    integer(c_int) :: broadcast = 1
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  ! release: a bind(c) subroutine release(ctx, last_use_stream) with two type(c_ptr), value
  ! arguments (c_funloc of it), or c_null_funptr.
  type, bind(c), public :: tb_borrow_desc
    integer(c_size_t) :: struct_size = 0
    type(c_ptr) :: data = c_null_ptr
    integer(c_int) :: dtype = 0
    integer(c_int) :: ndim = 0
    type(c_ptr) :: shape = c_null_ptr
    type(tb_device) :: device
    integer(c_int) :: read_only = 0
    type(c_ptr) :: ready_stream = c_null_ptr
    type(c_funptr) :: release = c_null_funptr
    type(c_ptr) :: release_ctx = c_null_ptr
    integer(c_int) :: cache_mirror = 0
  end type
  type, bind(c), public :: tb_substr_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: unit = 0
    integer(c_int) :: oob = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  ! gather_nd's (the gather family's: axis is for gather and gather_elements).
  type, bind(c), public :: tb_gather_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: oob = 0
    integer(c_int) :: axis = 0
    integer(c_int) :: batch_dims = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_scatter_elements_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: oob = 0
    integer(c_int) :: axis = 0
    integer(c_int) :: reduction = 0
    integer(c_int) :: deterministic = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type


  interface
    function c_tb_abi_version() bind(c, name="tb_abi_version")
      import :: c_int32_t
      integer(c_int32_t) :: c_tb_abi_version
    end function
    function c_tb_last_error() bind(c, name="tb_last_error")
      import :: c_ptr
      type(c_ptr) :: c_tb_last_error
    end function
    function c_tb_buffer_create(dtype, ndim, shape, out) bind(c, name="tb_buffer_create")
      import :: c_int, c_int64_t, c_ptr
      integer(c_int), value :: dtype, ndim
      integer(c_int64_t), intent(in) :: shape(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: c_tb_buffer_create
    end function
    function c_tb_buffer_borrow(data, dtype, ndim, shape, device, read_only, ready_stream, out) &
        bind(c, name="tb_buffer_borrow")
      import :: c_int, c_int64_t, c_ptr, tb_device
      type(c_ptr), value :: data
      integer(c_int), value :: dtype, ndim
      integer(c_int64_t), intent(in) :: shape(*)
      type(tb_device), value :: device
      integer(c_int), value :: read_only
      type(c_ptr), value :: ready_stream
      type(c_ptr), intent(out) :: out
      integer(c_int) :: c_tb_buffer_borrow
    end function
    function c_tb_buffer_borrow_ex(desc, out) bind(c, name="tb_buffer_borrow_ex")
      import :: c_int, c_ptr, tb_borrow_desc
      type(tb_borrow_desc), intent(in) :: desc
      type(c_ptr), intent(out) :: out
      integer(c_int) :: c_tb_buffer_borrow_ex
    end function
    function c_tb_buffer_note_external_write(buffer) &
        bind(c, name="tb_buffer_note_external_write")
      import :: c_int, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int) :: c_tb_buffer_note_external_write
    end function
    subroutine c_tb_buffer_destroy(buffer) bind(c, name="tb_buffer_destroy")
      import :: c_ptr
      type(c_ptr), value :: buffer
    end subroutine
    function c_tb_buffer_copy_to_host(buffer, dst, bytes) bind(c, name="tb_buffer_copy_to_host")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: buffer, dst
      integer(c_size_t), value :: bytes
      integer(c_int) :: c_tb_buffer_copy_to_host
    end function
    function c_tb_buffer_copy_from_host(buffer, src, bytes) &
        bind(c, name="tb_buffer_copy_from_host")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: buffer, src
      integer(c_size_t), value :: bytes
      integer(c_int) :: c_tb_buffer_copy_from_host
    end function
    function c_tb_buffer_dtype(buffer, out) bind(c, name="tb_buffer_dtype")
      import :: c_int, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int), intent(out) :: out
      integer(c_int) :: c_tb_buffer_dtype
    end function
    function c_tb_buffer_shape(buffer, ndim, shape) bind(c, name="tb_buffer_shape")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: buffer
      integer(c_int), intent(out) :: ndim
      integer(c_int64_t), intent(out) :: shape(*)
      integer(c_int) :: c_tb_buffer_shape
    end function
    function c_tb_synchronize(device, stream) bind(c, name="tb_synchronize")
      import :: c_int, c_ptr, tb_device
      type(tb_device), value :: device
      type(c_ptr), value :: stream
      integer(c_int) :: c_tb_synchronize
    end function
    function c_tb_substr(offsets, chars, ndim, shape, pos, len, options, out_offsets, &
        out_chars, out_ndim, out_shape) bind(c, name="tb_substr")
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: offsets, chars
      integer(c_int), value :: ndim
      integer(c_int64_t), intent(in) :: shape(*)
      type(c_ptr), value :: pos, len, options
      type(c_ptr), intent(out) :: out_offsets, out_chars
      integer(c_int), intent(out) :: out_ndim
      integer(c_int64_t), intent(out) :: out_shape(*)
      integer(c_int) :: c_tb_substr
    end function
    function c_tb_buffer_to_dlpack_versioned(buffer, consumer_stream, out) &
        bind(c, name="tb_buffer_to_dlpack_versioned")
      import :: c_int, c_ptr
      type(c_ptr), value :: buffer, consumer_stream
      type(c_ptr), intent(out) :: out
      integer(c_int) :: c_tb_buffer_to_dlpack_versioned
    end function
    function c_tb_buffer_from_dlpack_versioned(tensor, stream, out) &
        bind(c, name="tb_buffer_from_dlpack_versioned")
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, stream
      type(c_ptr), intent(out) :: out
      integer(c_int) :: c_tb_buffer_from_dlpack_versioned
    end function
    pure function c_strlen(s) bind(c, name="strlen")
      import :: c_ptr, c_size_t
      type(c_ptr), value, intent(in) :: s
      integer(c_size_t) :: c_strlen
    end function
  end interface
  ! The shapes of the plain op functions: one per form, shared by the scatters and by
  ! boolean_mask_update (whose second argument is the mask, the third int the axis). The
  ! wrappers call the _ex forms now; these stay for callers that name them.
  abstract interface
    function tb_op_in_place_c(tensor, second, updates, policy_or_axis, stream) result(status) &
        bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, second, updates
      integer(c_int), value :: policy_or_axis
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function
    function tb_op_c(tensor, second, updates, policy_or_axis, stream, out) result(status) &
        bind(c)
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, second, updates
      integer(c_int), value :: policy_or_axis
      type(c_ptr), value :: stream
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
  end interface
  public :: tb_op_in_place_c, tb_op_c

  ! One interface block per C function. Not procedure(<abstract interface>), bind(c) :: name:
  ! gfortran 12.2 passes the `value` arguments of such a declaration by address from every call
  ! site but the first (ctest fortran.raw_calls calls them from several sites). The scatter
  ! combines' (the public statement and the interfaces of each), from the op table:
  include 'tensorbuf_c_scatter.inc'

  interface
    function c_tb_boolean_mask_update_in_place( &
        tensor, mask, updates, axis, stream) &
        result(status) bind(c, name="tb_boolean_mask_update_in_place")
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, mask, updates
      integer(c_int), value :: axis
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function
    function c_tb_boolean_mask_update( &
        tensor, mask, updates, axis, stream, out) &
        result(status) bind(c, name="tb_boolean_mask_update")
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, mask, updates
      integer(c_int), value :: axis
      type(c_ptr), value :: stream
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_boolean_mask_update_in_place_ex( &
        tensor, mask, updates, options) &
        result(status) bind(c, name="tb_boolean_mask_update_in_place_ex")
      import :: c_int, c_ptr, tb_mask_update_options
      type(c_ptr), value :: tensor, mask, updates
      type(tb_mask_update_options), intent(in) :: options
      integer(c_int) :: status
    end function
    function c_tb_boolean_mask_update_ex( &
        tensor, mask, updates, options, out) &
        result(status) bind(c, name="tb_boolean_mask_update_ex")
      import :: c_int, c_ptr, tb_mask_update_options
      type(c_ptr), value :: tensor, mask, updates
      type(tb_mask_update_options), intent(in) :: options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    ! options: c_loc of a type(tb_gather_options), target, or c_null_ptr (the defaults).
    function c_tb_gather_nd(params, indices, options, out) &
        result(status) bind(c, name="tb_gather_nd")
      import :: c_int, c_ptr
      type(c_ptr), value :: params, indices, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_gather(params, indices, options, out) &
        result(status) bind(c, name="tb_gather")
      import :: c_int, c_ptr
      type(c_ptr), value :: params, indices, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_gather_elements(params, indices, options, out) &
        result(status) bind(c, name="tb_gather_elements")
      import :: c_int, c_ptr
      type(c_ptr), value :: params, indices, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    ! options: c_loc of a type(tb_scatter_elements_options), target, or c_null_ptr.
    function c_tb_scatter_elements(tensor, indices, updates, options, out) &
        result(status) bind(c, name="tb_scatter_elements")
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, indices, updates, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_scatter_elements_in_place(tensor, indices, updates, options) &
        result(status) bind(c, name="tb_scatter_elements_in_place")
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, indices, updates, options
      integer(c_int) :: status
    end function
  end interface

  ! The boolean_mask family (docs/boolean_mask.md) and the processing ops (docs/processing.md):
  ! their option structs and one interface block per C function. options: c_loc of the struct,
  ! target, or c_null_ptr (the defaults).
  type, bind(c), public :: tb_boolean_mask_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: axis = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_compress_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: has_axis = 0
    integer(c_int) :: axis = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_process_options
    integer(c_size_t) :: struct_size = 0
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  type, bind(c), public :: tb_quantize_linear_options
    integer(c_size_t) :: struct_size = 0
    integer(c_int) :: axis = 1
    type(c_ptr) :: stream = c_null_ptr
    type(c_ptr) :: device = c_null_ptr
  end type
  interface
    function c_tb_boolean_mask(tensor, mask, options, out) &
        result(status) bind(c, name="tb_boolean_mask")
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, mask, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_boolean_mask_into(tensor, mask, out, count, options) &
        result(status) bind(c, name="tb_boolean_mask_into")
      import :: c_int, c_ptr
      type(c_ptr), value :: tensor, mask, out, count, options
      integer(c_int) :: status
    end function
    function c_tb_compress(input, condition, options, out) &
        result(status) bind(c, name="tb_compress")
      import :: c_int, c_ptr
      type(c_ptr), value :: input, condition, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_normalize(x, mean, stddev, options, out) &
        result(status) bind(c, name="tb_normalize")
      import :: c_int, c_float, c_ptr
      type(c_ptr), value :: x
      real(c_float), value :: mean, stddev
      type(c_ptr), value :: options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_normalize_channels(x, means, stddevs, channels, options, out) &
        result(status) bind(c, name="tb_normalize_channels")
      import :: c_int, c_int64_t, c_float, c_ptr
      type(c_ptr), value :: x
      real(c_float), intent(in) :: means(*), stddevs(*)
      integer(c_int64_t), value :: channels
      type(c_ptr), value :: options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_quantize(x, zero_point, scale, options, out) &
        result(status) bind(c, name="tb_quantize")
      import :: c_int, c_float, c_ptr
      type(c_ptr), value :: x
      real(c_float), value :: zero_point, scale
      type(c_ptr), value :: options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_dequantize(x, zero_point, scale, options, out) &
        result(status) bind(c, name="tb_dequantize")
      import :: c_int, c_float, c_ptr
      type(c_ptr), value :: x
      real(c_float), value :: zero_point, scale
      type(c_ptr), value :: options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_cast(x, dtype, options, out) result(status) bind(c, name="tb_cast")
      import :: c_int, c_ptr
      type(c_ptr), value :: x
      integer(c_int), value :: dtype
      type(c_ptr), value :: options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_quantize_linear(x, scale, zero_point, options, out) &
        result(status) bind(c, name="tb_quantize_linear")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, scale, zero_point, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
    function c_tb_dequantize_linear(x, scale, zero_point, options, out) &
        result(status) bind(c, name="tb_dequantize_linear")
      import :: c_int, c_ptr
      type(c_ptr), value :: x, scale, zero_point, options
      type(c_ptr), intent(out) :: out
      integer(c_int) :: status
    end function
  end interface
  public :: c_tb_boolean_mask, c_tb_boolean_mask_into, c_tb_compress, c_tb_normalize, &
      c_tb_normalize_channels, c_tb_quantize, c_tb_dequantize, c_tb_cast, c_tb_quantize_linear, &
      c_tb_dequantize_linear

  public :: c_tb_abi_version, c_tb_last_error, c_tb_buffer_create, c_tb_buffer_borrow, &
      c_tb_buffer_borrow_ex, c_tb_buffer_note_external_write, &
      c_tb_buffer_destroy, c_tb_buffer_copy_to_host, c_tb_buffer_copy_from_host, &
      c_tb_buffer_dtype, c_tb_buffer_shape, c_tb_synchronize, &
      c_tb_boolean_mask_update_in_place, c_tb_boolean_mask_update, &
      c_tb_boolean_mask_update_in_place_ex, c_tb_boolean_mask_update_ex, c_tb_substr, &
      c_tb_buffer_to_dlpack_versioned, c_tb_buffer_from_dlpack_versioned, c_tb_gather_nd, &
      c_tb_gather, c_tb_gather_elements, c_tb_scatter_elements, c_tb_scatter_elements_in_place
  public :: c_string

  include 'processor_c.inc'

contains

  ! A NUL-terminated C string as a Fortran string. Its length is a specification expression,
  ! not deferred: gfortran 12 keeps a deferred result length in a static variable at each call
  ! site, which threads calling at once overwrite.
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=c_strlen(p)) :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i
    call c_f_pointer(p, chars, [len(s)])
    do i = 1, len(s)
      s(i:i) = chars(i)
    end do
  end function

end module tensorbuf_c
