build/obj/topology.o: src/topology.c src/internal.h src/tilesat.h
src/internal.h:
src/tilesat.h:
