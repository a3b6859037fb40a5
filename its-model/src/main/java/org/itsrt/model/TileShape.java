package org.itsrt.model;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * The vector shape that {@link PackedMatrix}'s layout and every precision's tile loops
 * ({@link Float32Tiles}, {@link Bf16Tiles}, {@link Int8Tiles}) must agree on, kept in one place
 * so that they cannot drift apart. Static finals, so the JIT folds them into the loops as
 * constants wherever they are read.
 */
final class TileShape {
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final int L = S.length();
    /** Four vectors: with four rows that is 16 accumulators, half the AVX-512 registers. */
    static final int TILE_WIDTH = 4 * L;

    /** Int lanes as many as {@link #S}'s float lanes: one int load per vector of narrow weights. */
    static final VectorSpecies<Integer> INTS = S.withLanes(int.class);

    private TileShape() {}
}
