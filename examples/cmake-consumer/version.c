/* version.c - includes no generated header: a schema change must not rebuild it. */
const char *app_version(void);

const char *app_version(void)
{
    return "1.0";
}
