/* The program of a layer check (LayerCheck.cmake): it does nothing; linking
 * it is the check. */
int main(void)
{
    return 0;
}
