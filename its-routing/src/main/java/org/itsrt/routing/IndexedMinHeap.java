package org.itsrt.routing;

import java.util.Arrays;

/**
 * A binary min-heap of the integers 0..capacity-1 keyed by doubles, with decrease-key: the open
 * set of the landmark search. Every array is allocated once, so a search allocates nothing.
 *
 * <p>Why not JGraphT's {@code PairingHeap} (what its A* uses): it allocates a node object per
 * insertion and keeps a hash map from vertex to node, per query. Here the position of each item
 * lives in a plain array indexed by the item.
 */
final class IndexedMinHeap {

    private static final int ABSENT = -1;

    /** The item at each heap position, 0 the root. */
    private final int[] items;
    /** The key at each heap position (beside the items, so sifting reads one array per side). */
    private final double[] keys;
    /** The heap position of each item, {@link #ABSENT} when it is not in the heap. */
    private final int[] positionOf;

    private int size;

    IndexedMinHeap(int capacity) {
        this.items = new int[capacity];
        this.keys = new double[capacity];
        this.positionOf = new int[capacity];
        Arrays.fill(positionOf, ABSENT);
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean contains(int item) {
        return positionOf[item] != ABSENT;
    }

    /** Adds an item that is not in the heap. */
    void insert(int item, double key) {
        if (contains(item)) {
            throw new IllegalStateException("item " + item + " is already in the heap");
        }
        int position = size++;
        siftUp(position, item, key);
    }

    /** Lowers the key of an item in the heap; a key that is not lower leaves it as it is. */
    void decreaseKey(int item, double key) {
        int position = positionOf[item];
        if (key < keys[position]) {
            siftUp(position, item, key);
        }
    }

    /** The smallest key; the heap must not be empty. */
    double minKey() {
        return keys[0];
    }

    /** Removes the item with the smallest key and returns it; the heap must not be empty. */
    int pollMin() {
        int min = items[0];
        positionOf[min] = ABSENT;
        int last = --size;
        if (last > 0) {
            siftDown(0, items[last], keys[last]);
        }
        return min;
    }

    /** Empties the heap in time proportional to what it still holds. */
    void clear() {
        for (int position = 0; position < size; position++) {
            positionOf[items[position]] = ABSENT;
        }
        size = 0;
    }

    private void siftUp(int position, int item, double key) {
        while (position > 0) {
            int parent = (position - 1) >>> 1;
            if (keys[parent] <= key) {
                break;
            }
            place(position, items[parent], keys[parent]);
            position = parent;
        }
        place(position, item, key);
    }

    private void siftDown(int position, int item, double key) {
        int half = size >>> 1;
        while (position < half) {
            int child = 2 * position + 1;
            int right = child + 1;
            if (right < size && keys[right] < keys[child]) {
                child = right;
            }
            if (key <= keys[child]) {
                break;
            }
            place(position, items[child], keys[child]);
            position = child;
        }
        place(position, item, key);
    }

    private void place(int position, int item, double key) {
        items[position] = item;
        keys[position] = key;
        positionOf[item] = position;
    }
}
