! run_txt.f90 -- a reader of run.txt, the flat form of motionbench's run description
! (doc/external.md, section 3a), in standard Fortran 2003.
!
! Every line is KEY or KEY VALUE...; lines starting with '#' are comments.  Arrays of
! numbers are one line of blank-separated numbers; arrays of records are KEY.count N
! followed by KEY.0..., KEY.1...; true and false are 1 and 0; null is the word null.
!
!   use run_txt
!   call run_txt_load('run.txt')
!   dt = run_txt_real('time.dt')
!   n  = run_txt_int('nodes.count')
!   call run_txt_reals('nodes.0.position', x(:, 1))
!   model = run_txt_value('forces.0.model')
!
! A key that is missing, or a value that does not read as asked, stops the program with
! a message naming the key (exit status 2).
module run_txt
  implicit none
  private
  public :: run_txt_load, run_txt_has, run_txt_value, run_txt_real, run_txt_int, &
            run_txt_reals, run_txt_key

  type :: entry
    character(len=:), allocatable :: key, value
  end type entry

  type(entry), allocatable :: entries(:)
  integer :: n_entries = 0

contains

  ! The whole line, however long (non-advancing reads of 256 characters at a time).
  subroutine read_line(unit, line, ios)
    integer, intent(in) :: unit
    character(len=:), allocatable, intent(out) :: line
    integer, intent(out) :: ios
    character(len=256) :: chunk
    integer :: got
    line = ''
    do
      read (unit, '(a)', advance='no', iostat=ios, size=got) chunk
      line = line // chunk(1:got)
      if (ios /= 0) exit
    end do
  end subroutine read_line

  subroutine add_entry(line)
    character(len=*), intent(in) :: line
    type(entry), allocatable :: grown(:)
    integer :: blank
    if (.not. allocated(entries)) allocate (entries(64))
    if (n_entries == size(entries)) then
      allocate (grown(2 * size(entries)))
      grown(1:n_entries) = entries(1:n_entries)
      call move_alloc(grown, entries)
    end if
    n_entries = n_entries + 1
    blank = index(line, ' ')
    if (blank == 0) then
      entries(n_entries)%key = line
      entries(n_entries)%value = ''
    else
      entries(n_entries)%key = line(1:blank - 1)
      entries(n_entries)%value = line(blank + 1:)
    end if
  end subroutine add_entry

  subroutine run_txt_load(path)
    character(len=*), intent(in) :: path
    character(len=:), allocatable :: line
    integer :: unit, ios
    open (newunit=unit, file=path, status='old', action='read', iostat=ios)
    if (ios /= 0) call fail(path, 'cannot open')
    n_entries = 0
    do
      call read_line(unit, line, ios)
      if (is_iostat_end(ios)) exit
      if (len(line) > 0) then
        if (line(1:1) /= '#') call add_entry(line)
      end if
    end do
    close (unit)
  end subroutine run_txt_load

  integer function find(key)
    character(len=*), intent(in) :: key
    do find = 1, n_entries
      if (entries(find)%key == key) return
    end do
    find = 0
  end function find

  logical function run_txt_has(key)
    character(len=*), intent(in) :: key
    run_txt_has = find(key) > 0
  end function run_txt_has

  ! The text after the key (a string value, or the numbers as written).
  function run_txt_value(key) result(text)
    character(len=*), intent(in) :: key
    character(len=:), allocatable :: text
    integer :: k
    k = find(key)
    if (k == 0) call fail(key, 'missing from run.txt')
    text = entries(k)%value
  end function run_txt_value

  real(kind(1d0)) function run_txt_real(key)
    character(len=*), intent(in) :: key
    integer :: ios
    character(len=:), allocatable :: text
    text = run_txt_value(key)
    read (text, *, iostat=ios) run_txt_real
    if (ios /= 0) call fail(key, 'is not a number')
  end function run_txt_real

  integer function run_txt_int(key)
    character(len=*), intent(in) :: key
    integer :: ios
    character(len=:), allocatable :: text
    text = run_txt_value(key)
    read (text, *, iostat=ios) run_txt_int
    if (ios /= 0) call fail(key, 'is not a whole number')
  end function run_txt_int

  ! size(values) numbers from one line (an array of numbers).
  subroutine run_txt_reals(key, values)
    character(len=*), intent(in) :: key
    real(kind(1d0)), intent(out) :: values(:)
    integer :: ios
    character(len=:), allocatable :: text
    text = run_txt_value(key)
    read (text, *, iostat=ios) values
    if (ios /= 0) call fail(key, 'does not hold the numbers expected')
  end subroutine run_txt_reals

  ! prefix // '.' // index // '.' // name, e.g. run_txt_key('nodes', 0, 'mass')
  function run_txt_key(prefix, i, name) result(key)
    character(len=*), intent(in) :: prefix, name
    integer, intent(in) :: i
    character(len=:), allocatable :: key
    character(len=12) :: digits
    write (digits, '(i0)') i
    key = prefix // '.' // trim(digits) // '.' // name
  end function run_txt_key

  subroutine fail(what, why)
    character(len=*), intent(in) :: what, why
    write (*, '(a)') 'run.txt: ' // what // ': ' // why
    error stop 2
  end subroutine fail

end module run_txt
