/* placeholder corpus runner */
int main(void) { return 0; }
