import { runCli } from '../main';
import { captureIo } from './cli-test-io';

describe('wayfinder map --format text: how each constraint is checked', () => {
  it('lists the rule of each hard constraint and the rule / embedder / unchecked share (ZH goal)', async () => {
    const io = captureIo();
    const goal = '整理客户名单到 result.json。不得修改源文件，不得调用任何删除类接口，禁止导出手机号，只能使用内部系统，最终输出必须为 JSON。';
    expect(await runCli(['map', '--goal', goal, '--format', 'text'], io)).toBe(0);
    const out = io.out();
    expect(out).toContain('CONSTRAINT CHECKS (rules 3, embedder 1, unchecked 1):');
    expect(out).toContain('1. [c1] never write the input files it read');
    expect(out).toContain('2. [c2] no delete tools');
    expect(out).toContain('3. [c3] embedder similarity (no rule applies)');
    expect(out).toContain('4. [c4] not checked (an obligation no rule covers)');
    expect(out).toContain('5. [c5] final output is JSON');
  });

  it('prints no constraint section for a goal without constraints (EN)', async () => {
    const io = captureIo();
    expect(await runCli(['map', '--goal', 'Collect pricing pages -> compare plans -> summarize', '--format', 'text'], io)).toBe(0);
    expect(io.out()).not.toContain('CONSTRAINT CHECKS');
  });
});
