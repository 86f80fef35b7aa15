! tb_gather_nd over Fortran arrays (docs/gather_nd.md; docs/c_api.md "Fortran"): rows and
! elements in tensor coordinates, batch_dims, a strided section, the policy with the bad tuple
! restated the Fortran way, and what the wrapper refuses, out untouched (ctest
! fortran.gather_nd). Expected values written out here from the rule, not computed.
program test_gather_nd
  use, intrinsic :: iso_c_binding
  use tensorbuf_f
  use tensorbuf_test_support
  implicit none
  real(c_float) :: p(3, 2), rows(3, 2), elements(2), section(2, 1), small(2, 2)
  integer(c_int32_t) :: q(2, 2, 2), batched(2, 2)
  integer(c_int64_t) :: idx64(2, 2)
  integer(c_int32_t) :: wrong_type(3, 2)
  integer :: ierr

  ! p(3, 2) is the tensor [2, 3] with rows [1, 2, 3] and [4, 5, 6].
  p = reshape([1, 2, 3, 4, 5, 6], [3, 2])
  ! indices(1, 2): the tuples [1] and [0], so rows 1 and 0: out(3, 2).
  rows = -1
  call tb_gather_nd(p, reshape([1, 0], [1, 2]), rows, ierr)
  call check(ierr == TB_OK .and. all(rows == reshape([4, 5, 6, 1, 2, 3], [3, 2])), &
      'rows: ' // message())
  ! Full-depth int64 tuples [1, 2] and [0, 0]: single elements, out(2).
  idx64 = reshape([1, 2, 0, 0], [2, 2])
  call tb_gather_nd(p, idx64, elements, ierr)
  call check(ierr == TB_OK .and. all(elements == [6, 1]), 'elements: ' // message())
  ! batch_dims = 1 (ONNX GatherND's example): q is the tensor [2, 2, 2] holding 0..7 in order,
  ! out[b] = q[b][indices[b]] with indices [[1], [0]]: [2, 3] and [4, 5].
  q = reshape([0, 1, 2, 3, 4, 5, 6, 7], [2, 2, 2])
  batched = -1
  call tb_gather_nd(q, reshape([1, 0], [1, 2]), batched, ierr, batch_dims=1)
  call check(ierr == TB_OK .and. all(batched == reshape([2, 3, 4, 5], [2, 2])), &
      'batch_dims 1: ' // message())
  ! A strided section: p(1:3:2, :) is the tensor [2, 2] with rows [1, 3] and [4, 6].
  call tb_gather_nd(p(1:3:2, :), reshape([1], [1, 1]), section, ierr, device=tb_device(0, 0), &
      stream=c_null_ptr)
  call check(ierr == TB_OK .and. all(section == reshape([4, 6], [2, 1])), 'section: ' // message())

  ! The policy: tuple [5] is outside the 2 rows; so is [-1] (never wrapped).
  rows = -1
  call tb_gather_nd(p, reshape([1, 5], [1, 2]), rows, ierr, oob=TB_OOB_ERROR)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(rows == -1), 'TB_OOB_ERROR: out unchanged')
  call check(message() == 'tb_gather_nd: the index tuple indices(:, 2) names params(:, 6), ' // &
      'outside params(3, 2) (as a tensor: indices[1] = [5] does not index into shape [2,3])', &
      'its message: ' // message())
  call tb_gather_nd(p, reshape([-1, 0], [1, 2]), rows, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(rows == -1), 'negative: the default errs')
  call tb_gather_nd(p, reshape([-1, 0], [1, 2]), rows, ierr, oob=TB_OOB_DROP)
  call check(ierr == TB_OK .and. all(rows == reshape([0, 0, 0, 1, 2, 3], [3, 2])), &
      'TB_OOB_DROP: zeros')

  ! What the wrapper refuses, out untouched.
  small = -1
  call tb_gather_nd(p, reshape([1, 0], [1, 2]), small, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(small == -1), 'out of another shape')
  call check(message() == 'tb_gather_nd: out has shape (2, 2) but the result has shape (3, 2)', &
      'its message: ' // message())
  wrong_type = -1
  call tb_gather_nd(p, reshape([1, 0], [1, 2]), wrong_type, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(wrong_type == -1), 'out of another type')
  call check(message() == 'tb_gather_nd: out is int32 but params is ' // &
      'float32 (out must have the type of params)', 'its message: ' // message())
  call tb_gather_nd(p, reshape([1, 0, 1], [1, 3]), rows, ierr, batch_dims=1)
  call check(ierr == TB_INVALID_ARGUMENT .and. all(rows == reshape([0, 0, 0, 1, 2, 3], [3, 2])) &
      .and. index(message(), 'tb_gather_nd: gather_nd: the batch dims of params [2] and ' // &
      'indices [3] differ') == 1, 'batch dims: ' // message())
  call tb_gather_nd(p, reshape([0.0_c_float], [1, 1]), section, ierr)
  call check(ierr == TB_INVALID_ARGUMENT .and. index(message(), &
      'tb_gather_nd: gather_nd: indices must be int32 or int64, got float32') == 1, &
      'real indices: ' // message())
  call finish('gather_nd')

contains

  function message() result(text)
    character(len=:), allocatable :: text
    call tb_get_last_error_message(text)
  end function

end program
