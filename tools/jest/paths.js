// Turns tsconfig `paths` ({"@wayfinder/x": ["libs/x/src/index.ts"]}) into Jest moduleNameMapper entries.
function pathsToModuleNameMapper(paths, prefix) {
  const mapper = {};
  for (const [alias, targets] of Object.entries(paths)) {
    const escaped = alias.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    mapper[`^${escaped}$`] = prefix + targets[0];
  }
  return mapper;
}
module.exports = { pathsToModuleNameMapper };
