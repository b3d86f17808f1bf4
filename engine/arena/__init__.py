"""`engine arena`: configs × starts × seeds as Ray work across a cluster, compared."""
