import { GoalPersistence } from './goal-persistence';
import { persistenceCurveSvg } from './persistence-curve-svg';
import { action, milestoneDone } from './persistence-steps.testing';

describe('the persistence curve as SVG', () => {
  it('draws a loop and its recovery with the deviation, correction and milestone marked, and loads nothing from elsewhere', () => {
    const tracker = new GoalPersistence({ anchors: [], milestones: [{ id: 'load', description: 'Load the raw data files' }] });
    tracker.onStep(action(0, 'read_file', { path: 'raw data files part 1' }));
    for (let seq = 1; seq <= 4; seq++) tracker.onStep(action(seq, 'job_status', { job: 'x' }), seq === 3 ? { deviations: [{ eventId: 'd', detector: 'known_poll_no_progress' }], corrections: [{ eventId: 'c', action: 'hint' }] } : {});
    tracker.onStep(action(5, 'read_file', { path: 'raw data files part 2' }));
    tracker.onStep(milestoneDone(6, 'load'));
    const svg = persistenceCurveSvg(tracker.report().curve, { title: 'agent <7> & co' });

    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('<title>agent &lt;7&gt; &amp; co</title>');
    expect(svg).toContain('<title>known_poll_no_progress at step 3</title>');
    expect(svg).toContain('<title>hint at step 3</title>');
    expect(svg).toContain('<title>milestone load at step 6</title>');
    expect((svg.match(/<polyline/g) ?? []).length).toBe(2);
    // Self-contained: no links, scripts, styles or images.
    expect(svg).not.toMatch(/href|<script|<image|<style|url\(/);
  });

  it('says so when there is nothing to draw', () => {
    expect(persistenceCurveSvg([])).toContain('no judged steps');
  });
});
