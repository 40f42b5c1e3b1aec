// The example bands bundled with the rules (rules/data/bands/*.json), by the name the API
// takes. The API has no list of them yet: keep this in step with that folder.

export const EXAMPLE_BANDS = [
  ["cops_and_kids", "Les flics et les gosses"],
  ["la_zone", "La zone"],
  ["the_school", "Le lycée"],
];
