/*
 * recipes.c - every recipe `openacl infer --recipe NAME` knows.  A new
 * recipe is one file defining a `const tool_recipe` (recipe.h) plus two lines
 * here; docs/recipes.md shows how.
 */
#include <stddef.h>
#include <string.h>

#include "recipe.h"

extern const tool_recipe tool_recipe_classify; /* recipe_classify.c */

const tool_recipe *const tool_recipes[] = {
    &tool_recipe_classify,
    NULL,
};

const tool_recipe *tool_recipe_find(const char *name) {
  for (size_t i = 0; tool_recipes[i] != NULL; i++)
    if (strcmp(tool_recipes[i]->name, name) == 0)
      return tool_recipes[i];
  return NULL;
}
