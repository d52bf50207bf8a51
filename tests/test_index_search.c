/* test_index_search.c -- mb_index_search.h: an index found where it stands in its row,
 * and reported absent (SIZE_MAX) below, between and above the row's indices, in an empty
 * row and outside the row's bounds; positions written out by hand. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "mb_index_search.h"

/* two rows of one array: [0, 4) = 2 5 9 14 and [4, 7) = 1 3 20 */
static const uint32_t a[7] = { 2, 5, 9, 14, 1, 3, 20 };

Test(index_search, present_at_its_position)
{
    cr_expect_eq(mb_index_find(a, 0, 4, 2), 0);
    cr_expect_eq(mb_index_find(a, 0, 4, 5), 1);
    cr_expect_eq(mb_index_find(a, 0, 4, 9), 2);
    cr_expect_eq(mb_index_find(a, 0, 4, 14), 3);
    cr_expect_eq(mb_index_find(a, 4, 7, 1), 4);
    cr_expect_eq(mb_index_find(a, 4, 7, 20), 6);
}

Test(index_search, absent_is_size_max)
{
    cr_expect_eq(mb_index_find(a, 0, 4, 0), SIZE_MAX);     /* below the row */
    cr_expect_eq(mb_index_find(a, 0, 4, 6), SIZE_MAX);     /* between 5 and 9 */
    cr_expect_eq(mb_index_find(a, 0, 4, 15), SIZE_MAX);    /* above the row */
    cr_expect_eq(mb_index_find(a, 0, 4, 3), SIZE_MAX);     /* in the next row only */
    cr_expect_eq(mb_index_find(a, 4, 7, 2), SIZE_MAX);     /* in the row before only */
    cr_expect_eq(mb_index_find(a, 2, 2, 9), SIZE_MAX);     /* an empty row */
    cr_expect_eq(mb_index_find(a, 4, 7, (size_t)UINT32_MAX + 3), SIZE_MAX);   /* beyond 32 bits */
}
