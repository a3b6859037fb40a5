package org.itsrt.routing;

/**
 * The size of a router's contraction hierarchy, which decides what a query and a customization
 * cost: a query visits at most twice the tree's height in detectors, a customization from scratch
 * works through every triangle.
 *
 * @param detectors  detectors of the graph
 * @param arcs       detector pairs of the hierarchy: the graph's, both directions as one, plus
 *                   the shortcuts contraction added
 * @param triangles  lower triangles over all arcs
 * @param treeHeight the elimination tree's height: the most ancestors one end of a query has
 */
public record HierarchyShape(int detectors, int arcs, int triangles, int treeHeight) {}
