/** Legitimate work: the same edit applied to different files (a rename across a code base). */
import { engineFor, runAll, steps } from './test-support/step-builder';

describe('the same edit to different files', () => {
  it('flags no loop although every call has the same replacement and the same "ok" result', () => {
    const s = steps();
    const files = ['src/app.ts', 'src/server.ts', 'src/routes/users.ts', 'src/routes/orders.ts', 'lib/db/pool.ts', 'lib/db/migrate.ts', 'test/app.spec.ts', 'test/routes.spec.ts', 'scripts/seed.ts', 'docs/setup.md', 'README.md', 'package.json'];
    const events = files.flatMap((path) => [
      s.act('edit_file', { path, find: 'getUserById', replace: 'findUserById' }),
      s.ok('edit_file', `edited ${path}: 1 replacement`),
    ]);
    const out = runAll(engineFor(), events);
    expect(out).toEqual([]);
  });
});
