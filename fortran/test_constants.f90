! The module's constants and option structs against <tensorbuf/c_api.h> (each value and layout
! from C, c_constants.cpp), and its scatter combines and wrappers against the op table (ctest
! fortran.constants). The constants and structs are read from the header by CMake
! (c_functions.cmake): this checks that reading against the C compiler's.
program test_constants
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  ! A wrapper for each op whose op-table row claims Fortran: compiling this is the check.
  include 'op_table_procedures.inc'
  implicit none
  interface
    integer(c_int) function c_constant(name, length, value) &
        bind(c, name="tensorbuf_test_c_constant")
      import :: c_char, c_int, c_int64_t, c_size_t
      character(kind=c_char), intent(in) :: name(*)
      integer(c_size_t), intent(in) :: length
      integer(c_int64_t), intent(out) :: value
    end function
    integer(c_int) function unasked_constants() bind(c, name="tensorbuf_test_unasked_constants")
      import :: c_int
    end function
    integer(c_int) function combines_match() bind(c, name="tensorbuf_test_fortran_combines_match")
      import :: c_int
    end function
    integer(c_int) function ops_match() bind(c, name="tensorbuf_test_fortran_ops_match")
      import :: c_int
    end function
  end interface
  type(tb_device) :: device
  type(tb_scatter_options), target :: scatter
  type(tb_mask_update_options), target :: mask
  type(tb_substr_options), target :: substr
  type(tb_borrow_desc), target :: desc
  type(tb_gather_options), target :: gather
  type(tb_scatter_elements_options), target :: elements
  type(tb_process_step), target :: step
  type(tb_boolean_mask_options), target :: mask_read
  type(tb_compress_options), target :: compress
  type(tb_process_options), target :: process
  type(tb_quantize_linear_options), target :: linear

  call expect('TB_OK', int(TB_OK, c_int64_t))
  call expect('TB_INVALID_ARGUMENT', int(TB_INVALID_ARGUMENT, c_int64_t))
  call expect('TB_OUT_OF_RANGE', int(TB_OUT_OF_RANGE, c_int64_t))
  call expect('TB_UNAVAILABLE', int(TB_UNAVAILABLE, c_int64_t))
  call expect('TB_RESOURCE_EXHAUSTED', int(TB_RESOURCE_EXHAUSTED, c_int64_t))
  call expect('TB_INTERNAL', int(TB_INTERNAL, c_int64_t))
  call expect('TB_BOOL', int(TB_BOOL, c_int64_t))
  call expect('TB_UINT8', int(TB_UINT8, c_int64_t))
  call expect('TB_INT8', int(TB_INT8, c_int64_t))
  call expect('TB_INT16', int(TB_INT16, c_int64_t))
  call expect('TB_INT32', int(TB_INT32, c_int64_t))
  call expect('TB_INT64', int(TB_INT64, c_int64_t))
  call expect('TB_FLOAT16', int(TB_FLOAT16, c_int64_t))
  call expect('TB_BFLOAT16', int(TB_BFLOAT16, c_int64_t))
  call expect('TB_FLOAT32', int(TB_FLOAT32, c_int64_t))
  call expect('TB_FLOAT64', int(TB_FLOAT64, c_int64_t))
  call expect('TB_OOB_DEFAULT', int(TB_OOB_DEFAULT, c_int64_t))
  call expect('TB_OOB_ERROR', int(TB_OOB_ERROR, c_int64_t))
  call expect('TB_OOB_DROP', int(TB_OOB_DROP, c_int64_t))
  call expect('TB_UNIT_BYTE', int(TB_UNIT_BYTE, c_int64_t))
  call expect('TB_UNIT_UTF8_CHAR', int(TB_UNIT_UTF8_CHAR, c_int64_t))
  call expect('TB_MAX_NDIM', int(TB_MAX_NDIM, c_int64_t))
  call expect('sizeof(tb_device)', int(c_sizeof(device), c_int64_t))
  call expect('sizeof(tb_scatter_options)', int(c_sizeof(scatter), c_int64_t))
  call expect('sizeof(tb_mask_update_options)', int(c_sizeof(mask), c_int64_t))
  call expect('sizeof(tb_substr_options)', int(c_sizeof(substr), c_int64_t))
  call expect('sizeof(tb_borrow_desc)', int(c_sizeof(desc), c_int64_t))
  call expect('offsetof(tb_scatter_options, device)', offset(c_loc(scatter), c_loc(scatter%device)))
  call expect('offsetof(tb_mask_update_options, device)', offset(c_loc(mask), c_loc(mask%device)))
  call expect('offsetof(tb_substr_options, device)', offset(c_loc(substr), c_loc(substr%device)))
  call expect('offsetof(tb_borrow_desc, release_ctx)', offset(c_loc(desc), c_loc(desc%release_ctx)))
  call expect('offsetof(tb_borrow_desc, cache_mirror)', &
      offset(c_loc(desc), c_loc(desc%cache_mirror)))
  call expect('sizeof(tb_gather_options)', int(c_sizeof(gather), c_int64_t))
  call expect('offsetof(tb_gather_options, batch_dims)', &
      offset(c_loc(gather), c_loc(gather%batch_dims)))
  call expect('offsetof(tb_gather_options, device)', offset(c_loc(gather), c_loc(gather%device)))
  call expect('TB_REDUCTION_NONE', int(TB_REDUCTION_NONE, c_int64_t))
  call expect('TB_REDUCTION_ADD', int(TB_REDUCTION_ADD, c_int64_t))
  call expect('TB_REDUCTION_MUL', int(TB_REDUCTION_MUL, c_int64_t))
  call expect('TB_REDUCTION_MIN', int(TB_REDUCTION_MIN, c_int64_t))
  call expect('TB_REDUCTION_MAX', int(TB_REDUCTION_MAX, c_int64_t))
  call expect('sizeof(tb_scatter_elements_options)', int(c_sizeof(elements), c_int64_t))
  call expect('offsetof(tb_scatter_elements_options, reduction)', &
      offset(c_loc(elements), c_loc(elements%reduction)))
  call expect('offsetof(tb_scatter_elements_options, device)', &
      offset(c_loc(elements), c_loc(elements%device)))
  call expect('TB_STEP_NORMALIZE', int(TB_STEP_NORMALIZE, c_int64_t))
  call expect('TB_STEP_NORMALIZE_CHANNELS', int(TB_STEP_NORMALIZE_CHANNELS, c_int64_t))
  call expect('TB_STEP_QUANTIZE', int(TB_STEP_QUANTIZE, c_int64_t))
  call expect('TB_STEP_DEQUANTIZE', int(TB_STEP_DEQUANTIZE, c_int64_t))
  call expect('TB_STEP_CAST', int(TB_STEP_CAST, c_int64_t))
  call expect('sizeof(tb_process_step)', int(c_sizeof(step), c_int64_t))
  call expect('offsetof(tb_process_step, scale)', offset(c_loc(step), c_loc(step%scale)))
  call expect('offsetof(tb_process_step, means)', offset(c_loc(step), c_loc(step%means)))
  call expect('offsetof(tb_process_step, channels)', offset(c_loc(step), c_loc(step%channels)))
  call expect('offsetof(tb_process_step, dtype)', offset(c_loc(step), c_loc(step%dtype)))
  call expect('sizeof(tb_boolean_mask_options)', int(c_sizeof(mask_read), c_int64_t))
  call expect('offsetof(tb_boolean_mask_options, device)', &
      offset(c_loc(mask_read), c_loc(mask_read%device)))
  call expect('sizeof(tb_compress_options)', int(c_sizeof(compress), c_int64_t))
  call expect('offsetof(tb_compress_options, axis)', offset(c_loc(compress), c_loc(compress%axis)))
  call expect('offsetof(tb_compress_options, device)', &
      offset(c_loc(compress), c_loc(compress%device)))
  call expect('sizeof(tb_process_options)', int(c_sizeof(process), c_int64_t))
  call expect('offsetof(tb_process_options, device)', offset(c_loc(process), c_loc(process%device)))
  call expect('sizeof(tb_quantize_linear_options)', int(c_sizeof(linear), c_int64_t))
  call expect('offsetof(tb_quantize_linear_options, device)', &
      offset(c_loc(linear), c_loc(linear%device)))
  call expect('TB_ABI_VERSION', int(TB_ABI_VERSION, c_int64_t))
  call check(unasked_constants() == 0, 'every C constant has its Fortran check')
  call check(combines_match() == 1, 'the module was generated for the op table''s combines')
  call check(ops_match() == 1, 'the wrappers named here are the op table''s Fortran ops')
  call finish('constants')

contains

  subroutine expect(name, fortran_value)
    character(len=*), intent(in) :: name
    integer(c_int64_t), intent(in) :: fortran_value
    integer(c_int64_t) :: c_value
    character(len=24) :: text
    if (c_constant(name, int(len(name), c_size_t), c_value) == 0) then
      call check(.false., name // ' is not among the C constants of c_constants.cpp')
      return
    end if
    write(text, '(i0, " /= ", i0)') fortran_value, c_value
    call check(fortran_value == c_value, name // ': Fortran /= C: ' // trim(text))
  end subroutine

  integer(c_int64_t) function offset(base, field)
    type(c_ptr), intent(in) :: base, field
    offset = transfer(field, 0_c_intptr_t) - transfer(base, 0_c_intptr_t)
  end function

end program
