! tb_gather, tb_gather_elements and tb_scatter_elements(_in_place) over Fortran arrays
! (docs/elements.md; docs/c_api.md "Fortran"): 1-based indices and dims, v <= 0 counted from the
! end, int32 and int64 indices, a scalar index, strided sections, each reduction's rule, the
! policy with the bad index restated the Fortran way, and what the wrappers refuse with a and
! out untouched (ctest fortran.elements). Expected values written out here from the rule.
program test_elements
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  real(c_float) :: p(3, 2), g(2, 2), cols(3, 3), row(3), e(2, 2), e2(3, 1), a(3, 2), out(3, 2)
  real(c_float) :: u(2, 2)
  integer(c_int32_t) :: idx(2, 2), wrong_updates(1, 1)
  integer :: ierr

  ! p(i, j) = i + 3 (j - 1): the columns [1, 2, 3] and [4, 5, 6].
  p = reshape([1, 2, 3, 4, 5, 6], [3, 2])

  ! tb_gather along dim 1: g(k, j) = p(idx(k), j).
  g = -1
  call tb_gather(p, [3, 1], g, ierr, dim=1)
  call check(ierr == TB_OK .and. all(g == reshape([3, 1, 6, 4], [2, 2])), 'gather dim 1: ' // &
      message())
  ! 0 is the last index, -1 the one before it.
  call tb_gather(p, [0, -1], g, ierr, dim=1)
  call check(ierr == TB_OK .and. all(g == reshape([3, 2, 6, 5], [2, 2])), 'gather v <= 0: ' // &
      message())
  ! The default dim is the last: cols(i, k) = p(i, idx(k)), int64 indices.
  cols = -1
  call tb_gather(p, [2_c_int64_t, 2_c_int64_t, 1_c_int64_t], cols, ierr)
  call check(ierr == TB_OK .and. all(cols == reshape([4, 5, 6, 4, 5, 6, 1, 2, 3], [3, 3])), &
      'gather default dim: ' // message())
  ! A scalar index drops the dim: p(:, 2).
  row = -1
  call tb_gather(p, 2, row, ierr, dim=2, device=tb_device(0, 0), stream=c_null_ptr)
  call check(ierr == TB_OK .and. all(row == [4, 5, 6]), 'gather scalar: ' // message())

  ! tb_gather_elements: e(i, j) = p(idx(i, j), j) along dim 1.
  e = -1
  call tb_gather_elements(p, reshape([3, 1, 2, 2], [2, 2]), e, ierr, dim=1)
  call check(ierr == TB_OK .and. all(e == reshape([3, 1, 5, 5], [2, 2])), &
      'gather_elements dim 1: ' // message())
  ! Along dim 2 (the default): e2(i, 1) = p(i, idx(i, 1)).
  call tb_gather_elements(p, reshape([2, 1, 0], [3, 1]), e2, ierr)
  call check(ierr == TB_OK .and. all(e2 == reshape([4, 2, 6], [3, 1])), &
      'gather_elements dim 2: ' // message())
  ! A strided section: p(1:3:2, :) is s(2, 2) = [1, 3; 4, 6] (columns [1, 3] and [4, 6]).
  call tb_gather_elements(p(1:3:2, :), reshape([2, 1, 1, 2], [2, 2]), e, ierr, dim=2)
  call check(ierr == TB_OK .and. all(e == reshape([4, 3, 1, 6], [2, 2])), &
      'gather_elements section: ' // message())
  ! The policy: idx(2, 1) = 4 is outside dim 1 of p(3, 2).
  e = -1
  call tb_gather_elements(p, reshape([1, 4, 1, 1], [2, 2]), e, ierr, dim=1, oob=TB_OOB_ERROR)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(e == -1), 'TB_OOB_ERROR: out unchanged')
  call check(message() == 'tb_gather_elements: indices(2, 1) = 4 is out of range for dim 1 ' // &
      'of params(3, 2) (as a tensor: indices[0,1] = 3 is out of range for axis 1 of shape ' // &
      '[2,3])', 'its message: ' // message())
  call tb_gather_elements(p, reshape([1, 4, 1, 1], [2, 2]), e, ierr, dim=1, oob=TB_OOB_DROP)
  call check(ierr == TB_OK .and. all(e == reshape([1, 0, 4, 4], [2, 2])), 'TB_OOB_DROP: zero')

  ! What the gathers refuse, out untouched.
  g = -1
  call tb_gather(p, [1], g, ierr, dim=3)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(g == -1), 'dim 3 of a rank-2 array')
  call check(message() == 'tb_gather: dim = 3 is not a dimension of params, of rank 2', &
      'its message: ' // message())
  call tb_gather(p, [3, 1], cols, ierr, dim=1)
  call check(ierr == TB_INVALID_ARGUMENT .and. cols(1, 1) == 4, 'out of another shape')
  call check(message() == 'tb_gather: out has shape (3, 3) but the result has shape (2, 2)', &
      'its message: ' // message())

  ! tb_scatter_elements_in_place along dim 1 with add: a(idx(i, j), j) += u(i, j); idx(:, 1)
  ! names a(3, 1) twice, idx(2, 2) = 0 names a(3, 2).
  idx = reshape([3, 3, 1, 0], [2, 2])
  u = reshape([10, 20, 30, 40], [2, 2])
  a = p
  call tb_scatter_elements_in_place(a, idx, u, ierr, dim=1, reduction=TB_REDUCTION_ADD)
  call check(ierr == TB_OK .and. all(a == reshape([1, 2, 33, 34, 5, 46], [3, 2])), &
      'scatter add: ' // message())
  ! Out of place, assignment (the default): the later duplicate wins; p unchanged.
  out = -1
  call tb_scatter_elements(p, idx, u, out, ierr, dim=1)
  call check(ierr == TB_OK .and. all(out == reshape([1, 2, 20, 30, 5, 40], [3, 2])) .and. &
      all(p == reshape([1, 2, 3, 4, 5, 6], [3, 2])), 'scatter none: ' // message())
  ! max along dim 2 (the default), int64 indices: a(i, idx(i)) = max(that, u(i)).
  a = p
  call tb_scatter_elements_in_place(a, reshape([2_c_int64_t, 1_c_int64_t, 2_c_int64_t], [3, 1]), &
      reshape([0.0_c_float, 9.0_c_float, 7.0_c_float], [3, 1]), ierr, &
      reduction=TB_REDUCTION_MAX, deterministic=.true.)
  call check(ierr == TB_OK .and. all(a == reshape([1, 9, 3, 4, 5, 7], [3, 2])), &
      'scatter max: ' // message())
  ! mul into a strided section, written back to exactly its elements.
  a = p
  call tb_scatter_elements_in_place(a(1:3:2, :), reshape([2, 1], [2, 1]), &
      reshape([10.0_c_float, 100.0_c_float], [2, 1]), ierr, reduction=TB_REDUCTION_MUL)
  call check(ierr == TB_OK .and. all(a == reshape([1, 2, 300, 40, 5, 6], [3, 2])), &
      'scatter section: ' // message())

  ! Errors write nothing: a bad index under TB_OOB_ERROR, named the Fortran way ...
  a = p
  call tb_scatter_elements_in_place(a, reshape([4], [1, 1]), reshape([1.0_c_float], [1, 1]), &
      ierr, dim=1, reduction=TB_REDUCTION_ADD, oob=TB_OOB_ERROR)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(a == p), 'scatter TB_OOB_ERROR: a unchanged')
  call check(message() == 'tb_scatter_elements_in_place: indices(1, 1) = 4 is out of range ' // &
      'for dim 1 of a(3, 2) (as a tensor: indices[0,0] = 3 is out of range for axis 1 of ' // &
      'shape [2,3])', 'its message: ' // message())
  ! ... skipped under TB_OOB_DROP ...
  call tb_scatter_elements_in_place(a, reshape([4, 2], [2, 1]), &
      reshape([1.0_c_float, 1.0_c_float], [2, 1]), ierr, dim=1, reduction=TB_REDUCTION_ADD, &
      oob=TB_OOB_DROP)
  call check(ierr == TB_OK .and. all(a == reshape([1, 3, 3, 4, 5, 6], [3, 2])), &
      'scatter TB_OOB_DROP: skipped')
  ! ... updates of another type, a bad dim, a bad reduction, out of another shape.
  a = p
  wrong_updates = 1
  call tb_scatter_elements_in_place(a, reshape([1], [1, 1]), wrong_updates, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(a == p) .and. index(message(), &
      'tb_scatter_elements_in_place: scatter_elements: updates must have the tensor''s dtype') &
      == 1, 'int32 updates: ' // message())
  call tb_scatter_elements_in_place(a, reshape([1], [1, 1]), reshape([1.0_c_float], [1, 1]), &
      ierr, dim=0)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(a == p) .and. &
      message() == 'tb_scatter_elements_in_place: dim = 0 is not a dimension of a, of rank 2', &
      'dim 0: ' // message())
  call tb_scatter_elements_in_place(a, reshape([1], [1, 1]), reshape([1.0_c_float], [1, 1]), &
      ierr, reduction=7_c_int)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(a == p) .and. &
      message() == 'tb_scatter_elements_in_place: unknown tb_reduction 7', &
      'reduction 7: ' // message())
  call tb_scatter_elements(p, idx, u, g, ierr, dim=1)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(g == -1), 'scatter out of another shape')
  call finish('elements')

contains

  function message() result(text)
    character(len=:), allocatable :: text
    call tb_get_last_error_message(text)
  end function

end program
