build/obj/rules.o: src/rules.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
