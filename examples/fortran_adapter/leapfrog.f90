! leapfrog.f90 -- the leap-frog (kick-drift-kick, on-step velocities) as an outside
! integrator of motionbench, reading the flat run description run.txt
! (doc/external.md, sections 3a and 6).
!
! usage: fleapfrog run.json trajectory.csv   (run.txt is read beside run.json)
!
!   v(t + h/2) = v(t) + (h/2) a(x(t));  x(t + h) = x(t) + h v(t + h/2);
!   v(t + h)   = v(t + h/2) + (h/2) a(x(t + h))
!
! Forces: gravity, central (inverse square), springs without dashpot (to an anchor or
! between nodes).  Anything else, a rotating problem, blocked degrees of freedom or a
! fixed node is declined with exit status 77.  Build (gfortran or any Fortran 2003
! compiler), in this directory:
!   gfortran -O2 -o fleapfrog ../run_txt/run_txt.f90 leapfrog.f90
program leapfrog
  use run_txt
  implicit none
  integer, parameter :: dp = kind(1d0)
  character(len=4096) :: run_json, trajectory
  real(dp), allocatable :: x(:, :), v(:, :), a(:, :), mass(:)
  real(dp) :: h
  integer :: n_nodes, steps, every, n, out

  if (command_argument_count() /= 2) then
    write (*, '(a)') 'usage: fleapfrog run.json trajectory.csv'
    error stop 2
  end if
  call get_command_argument(1, run_json)
  call get_command_argument(2, trajectory)
  call run_txt_load(beside(trim(run_json), 'run.txt'))
  call check_supported()

  h = run_txt_real('time.dt')
  steps = run_txt_int('time.steps')
  every = run_txt_int('time.sample_every')
  n_nodes = run_txt_int('nodes.count')
  allocate (x(3, n_nodes), v(3, n_nodes), a(3, n_nodes), mass(n_nodes))
  call initial_state()
  call accelerations(x, a)

  open (newunit=out, file=trim(trajectory), status='replace', action='write')
  write (out, '(a)') commas(run_txt_value('columns'))
  call write_row(0)
  do n = 1, steps
    v = v + 0.5_dp * h * a
    x = x + h * v
    call accelerations(x, a)
    v = v + 0.5_dp * h * a
    if (mod(n, every) == 0 .or. n == steps) call write_row(n)
  end do
  close (out)

contains

  ! the file name beside path (same directory)
  function beside(path, name) result(full)
    character(len=*), intent(in) :: path, name
    character(len=:), allocatable :: full
    integer :: slash
    slash = index(path, '/', back=.true.)
    full = path(1:slash) // name
  end function beside

  subroutine decline(why)
    character(len=*), intent(in) :: why
    write (*, '(a)') why
    stop 77
  end subroutine decline

  subroutine check_supported()
    integer :: f, s
    character(len=:), allocatable :: model, prefix
    if (run_txt_int('rotation') /= 0) call decline('rotation is outside this example')
    do f = 0, run_txt_int('forces.count') - 1
      model = run_txt_value(run_txt_key('forces', f, 'model'))
      if (model == 'springs') then
        prefix = run_txt_key('forces', f, 'springs')
        do s = 0, run_txt_int(prefix // '.count') - 1
          if (run_txt_real(run_txt_key(prefix, s, 'c')) /= 0) &
            call decline('springs with dashpots are outside this example')
        end do
      else if (model /= 'gravity' .and. model /= 'central') then
        call decline("force model '" // model // "' is outside this example")
      end if
    end do
  end subroutine check_supported

  subroutine initial_state()
    integer :: i
    do i = 1, n_nodes
      if (run_txt_value(run_txt_key('nodes', i - 1, 'mass')) == 'null') &
        call decline('fixed nodes (infinite mass) are outside this example')
      if (run_txt_value(run_txt_key('nodes', i - 1, 'blocked')) /= '') &
        call decline('blocked degrees of freedom are outside this example')
      mass(i) = run_txt_real(run_txt_key('nodes', i - 1, 'mass'))
      call run_txt_reals(run_txt_key('nodes', i - 1, 'position'), x(:, i))
      call run_txt_reals(run_txt_key('nodes', i - 1, 'velocity'), v(:, i))
    end do
  end subroutine initial_state

  ! a = f / m for every force model of run.txt
  subroutine accelerations(x, a)
    real(dp), intent(in) :: x(:, :)
    real(dp), intent(out) :: a(:, :)
    real(dp) :: f(3, n_nodes), g(3), centre(3), mu
    integer :: m, i
    character(len=:), allocatable :: model
    f = 0
    do m = 0, run_txt_int('forces.count') - 1
      model = run_txt_value(run_txt_key('forces', m, 'model'))
      if (model == 'gravity') then
        call run_txt_reals(run_txt_key('forces', m, 'g'), g)
        do i = 1, n_nodes
          f(:, i) = f(:, i) + mass(i) * g
        end do
      else if (model == 'central') then
        mu = run_txt_real(run_txt_key('forces', m, 'mu'))
        call run_txt_reals(run_txt_key('forces', m, 'centre'), centre)
        do i = 1, n_nodes     ! f_i = -mu m_i (x_i - c) / |x_i - c|^3
          f(:, i) = f(:, i) - mu * mass(i) * (x(:, i) - centre) / norm2(x(:, i) - centre)**3
        end do
      else
        call add_springs(run_txt_key('forces', m, 'springs'), x, f)
      end if
    end do
    do i = 1, n_nodes
      a(:, i) = f(:, i) / mass(i)
    end do
  end subroutine accelerations

  ! f_i = k (l - rest) n with n = (x_j - x_i) / l (rest = 0: k (x_j - x_i)); f_j = -f_i
  subroutine add_springs(prefix, x, f)
    character(len=*), intent(in) :: prefix
    real(dp), intent(in) :: x(:, :)
    real(dp), intent(inout) :: f(:, :)
    real(dp) :: other(3), d(3), k, rest, scale
    integer :: s, i, j
    do s = 0, run_txt_int(prefix // '.count') - 1
      i = run_txt_int(run_txt_key(prefix, s, 'i')) + 1
      j = 0
      if (run_txt_has(run_txt_key(prefix, s, 'anchor'))) then
        call run_txt_reals(run_txt_key(prefix, s, 'anchor'), other)
      else
        j = run_txt_int(run_txt_key(prefix, s, 'j')) + 1
        other = x(:, j)
      end if
      k = run_txt_real(run_txt_key(prefix, s, 'k'))
      rest = run_txt_real(run_txt_key(prefix, s, 'rest'))
      d = other - x(:, i)
      scale = k
      if (rest /= 0) scale = k * (1 - rest / norm2(d))
      f(:, i) = f(:, i) + scale * d
      if (j > 0) f(:, j) = f(:, j) - scale * d
    end do
  end subroutine add_springs

  ! t, then x, v of every node, 17 significant digits, comma separated
  subroutine write_row(n)
    integer, intent(in) :: n
    integer :: i
    call put(n * h, '')
    do i = 1, n_nodes
      call put(x(1, i), ','); call put(x(2, i), ','); call put(x(3, i), ',')
      call put(v(1, i), ','); call put(v(2, i), ','); call put(v(3, i), ',')
    end do
    write (out, '(a)') ''
  end subroutine write_row

  subroutine put(value, separator)
    real(dp), intent(in) :: value
    character(len=*), intent(in) :: separator
    character(len=32) :: text
    write (text, '(es24.16e3)') value
    write (out, '(a)', advance='no') separator // trim(adjustl(text))
  end subroutine put

  ! the blank-separated column names as a CSV header
  function commas(names) result(header)
    character(len=*), intent(in) :: names
    character(len=:), allocatable :: header
    integer :: k
    header = names
    do k = 1, len(header)
      if (header(k:k) == ' ') header(k:k) = ','
    end do
  end function commas

end program leapfrog
