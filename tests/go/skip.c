/* skip.c - stands in for the differential test when Go is not installed. */
#include <stdio.h>

int main(void)
{
    puts("go not found: the differential test against Go is skipped");
    return 77; /* Meson: skipped */
}
