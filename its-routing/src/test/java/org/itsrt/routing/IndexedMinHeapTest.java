package org.itsrt.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The search's heap against a plain array scanned for its minimum. */
class IndexedMinHeapTest {

    @Property(tries = 300)
    void behavesLikeAScannedArray(@ForAll long seed) {
        Random random = new Random(seed);
        int capacity = 1 + random.nextInt(60);
        IndexedMinHeap heap = new IndexedMinHeap(capacity);
        double[] reference = new double[capacity];
        Arrays.fill(reference, Double.NaN);

        for (int step = 0; step < 500; step++) {
            int item = random.nextInt(capacity);
            double key = random.nextInt(4) == 0 ? random.nextInt(5) : random.nextDouble() * 1000;
            int operation = random.nextInt(10);
            if (operation < 4 && !heap.contains(item)) {
                heap.insert(item, key);
                reference[item] = key;
            } else if (operation < 7 && heap.contains(item)) {
                heap.decreaseKey(item, key);
                reference[item] = Math.min(reference[item], key);
            } else if (operation < 9 && !heap.isEmpty()) {
                double min = Arrays.stream(reference)
                        .filter(k -> !Double.isNaN(k))
                        .min()
                        .orElseThrow();
                assertThat(heap.minKey()).isEqualTo(min);
                int polled = heap.pollMin();
                assertThat(reference[polled]).isEqualTo(min);
                reference[polled] = Double.NaN;
            } else if (operation == 9 && random.nextInt(10) == 0) {
                heap.clear();
                Arrays.fill(reference, Double.NaN);
            }
            for (int i = 0; i < capacity; i++) {
                assertThat(heap.contains(i)).isEqualTo(!Double.isNaN(reference[i]));
            }
            assertThat(heap.isEmpty()).isEqualTo(Arrays.stream(reference).allMatch(Double::isNaN));
        }
    }

    @Test
    void anItemIsInsertedOnlyOnce() {
        IndexedMinHeap heap = new IndexedMinHeap(3);
        heap.insert(1, 2.0);

        assertThatThrownBy(() -> heap.insert(1, 1.0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("item 1 is already in the heap");
    }
}
