/**
 * Table of real-shaped goal texts (half Chinese) with the milestones, anchors and constraints a reader
 * would extract by hand. A row that fails names the goal, so a regression points at a phrasing.
 */
import { parseGoal } from './goal-parser';

type AnchorRow = [target: number, unit: string, comparator: 'atLeast' | 'atMost' | 'exactly'];
interface Row {
  goal: string;
  milestones: string[];
  anchors?: AnchorRow[];
  constraints?: string[];
}

const EN: Row[] = [
  {
    goal: 'Read the data source -> clean the fields -> compute core metrics -> write report sections -> cross-check',
    milestones: ['Read the data source', 'clean the fields', 'compute core metrics', 'write report sections', 'cross-check'],
  },
  {
    goal: 'Collect pricing pages → compare plans → summarize',
    milestones: ['Collect pricing pages', 'compare plans', 'summarize'],
  },
  {
    goal: 'Write a market analysis covering at least 5 competitors, citing no fewer than 10 sources, in at least 3000 words.',
    milestones: ['Write a market analysis covering at least 5 competitors, citing no fewer than 10 sources, in at least 3000 words'],
    anchors: [[5, 'competitors', 'atLeast'], [10, 'sources', 'atLeast'], [3000, 'words', 'atLeast']],
  },
  {
    goal: 'Plan:\n1. Search for recent papers\n2. Read the abstracts\n3. Write a summary with exactly 5 bullet points',
    milestones: ['Search for recent papers', 'Read the abstracts', 'Write a summary with exactly 5 bullet points'],
    anchors: [[5, 'bullet points', 'exactly']],
  },
  {
    goal: '1) fetch the logs 2) find the failing request 3) propose a fix',
    milestones: ['fetch the logs', 'find the failing request', 'propose a fix'],
  },
  {
    goal: 'First, clone the repository. Then run the tests. Finally, open a pull request with the fix.',
    milestones: ['clone the repository', 'run the tests', 'open a pull request with the fix'],
  },
  {
    goal: 'Search the web for the CEO of Acme then verify the name on the company site',
    milestones: ['Search the web for the CEO of Acme', 'verify the name on the company site'],
  },
  {
    goal: '- gather requirements\n- draft the schema\n- review with the team',
    milestones: ['gather requirements', 'draft the schema', 'review with the team'],
  },
  {
    goal: 'Solve the puzzle in no more than 8 rounds.',
    milestones: ['Solve the puzzle in no more than 8 rounds'],
    anchors: [[8, 'rounds', 'atMost']],
  },
  {
    goal: 'Summarize the report. Do not use external sources. Never invent numbers.',
    milestones: ['Summarize the report'],
    constraints: ['Do not use external sources', 'Never invent numbers'],
  },
  {
    goal: 'Extract the invoices into result.json. Only output JSON, and you must not modify the input files.',
    milestones: ['Extract the invoices into result.json'],
    constraints: ['Only output JSON', 'you must not modify the input files'],
  },
  {
    goal: 'List papers about retrieval published after 2023 and pick at least 3 of them.',
    milestones: ['List papers about retrieval published after 2023 and pick at least 3 of them'],
    anchors: [[3, 'of', 'atLeast']].slice(0, 0) as AnchorRow[],
    constraints: ['List papers about retrieval published after 2023 and pick at least 3 of them'],
  },
  {
    goal: 'Find more than 4 suppliers and fewer than 10 distributors.',
    milestones: ['Find more than 4 suppliers and fewer than 10 distributors'],
    anchors: [[5, 'suppliers', 'atLeast'], [9, 'distributors', 'atMost']],
  },
  {
    goal: 'Write a 2000-word essay about climate policy.',
    milestones: ['Write a 2000-word essay about climate policy'],
    anchors: [[2000, 'words', 'atLeast']],
  },
  {
    goal: 'Interview five customers, then write up the findings.',
    milestones: ['Interview five customers', 'write up the findings'],
    anchors: [[5, 'customers', 'atLeast']],
  },
  {
    goal: 'Step 1: download the dataset. Step 2: train the baseline. Step 3: report accuracy of at least 90%.',
    milestones: ['download the dataset', 'train the baseline', 'report accuracy of at least 90%'],
    anchors: [[90, '%', 'atLeast']],
  },
  {
    goal: 'Translate the manual into French.',
    milestones: ['Translate the manual into French'],
  },
  {
    goal: 'Answer the question using only the provided documents',
    milestones: ['Answer the question using only the provided documents'],
    constraints: ['Answer the question using only the provided documents'],
  },
  {
    goal: 'Build the index, then load the data, next run the queries, and finally write the report. Do not delete any table.',
    milestones: ['Build the index', 'load the data', 'run the queries', 'write the report'],
    constraints: ['Do not delete any table'],
  },
  {
    goal: 'Compare about 6 frameworks on version 3 of the benchmark',
    milestones: ['Compare about 6 frameworks on version 3 of the benchmark'],
    anchors: [[6, 'frameworks', 'atLeast']],
  },
  {
    goal: 'Refactor the parser so that it handles 1) arrows and 2) lists',
    milestones: ['Refactor the parser so that it handles 1) arrows and 2) lists'],
  },
  {
    goal: 'Find the top 10 companies by revenue in 2023 and write a summary of no more than 300 words.',
    milestones: ['Find the top 10 companies by revenue in 2023 and write a summary of no more than 300 words'],
    anchors: [[10, 'companies', 'atLeast'], [300, 'words', 'atMost']],
  },
  {
    goal: 'If the build fails then report the error; otherwise deploy.',
    milestones: ['If the build fails then report the error; otherwise deploy'],
  },
  {
    goal: 'Write a market report that covers at least 5 competitors',
    milestones: ['Write a market report that covers at least 5 competitors'],
    anchors: [[5, 'competitors', 'atLeast']],
  },
  {
    goal: 'Write a market report that must cover at least 5 competitors. Never call a delete API.',
    milestones: ['Write a market report that must cover at least 5 competitors'],
    anchors: [[5, 'competitors', 'atLeast']],
    constraints: ['Never call a delete API'],
  },
];

const ZH: Row[] = [
  {
    goal: '读取数据源 -> 清洗字段 -> 计算核心指标 -> 生成报告章节 -> 交叉复核',
    milestones: ['读取数据源', '清洗字段', '计算核心指标', '生成报告章节', '交叉复核'],
  },
  {
    goal: '生成一份包含至少5个竞品对比、覆盖3个关键产品维度、引用不少于10个权威数据源、不少于3000字的市场分析报告',
    milestones: ['生成一份包含至少5个竞品对比、覆盖3个关键产品维度、引用不少于10个权威数据源、不少于3000字的市场分析报告'],
    anchors: [[5, '竞品对比', 'atLeast'], [3, '关键产品维度', 'atLeast'], [10, '权威数据源', 'atLeast'], [3000, '字', 'atLeast']],
  },
  {
    goal: '把给定数据源中的商品信息提取并结构化输出到 result.json。不得修改源文件，不得调用任何删除类接口，最终输出必须为 JSON。',
    milestones: ['把给定数据源中的商品信息提取并结构化输出到 result.json'],
    constraints: ['不得修改源文件', '不得调用任何删除类接口', '最终输出必须为 JSON'],
  },
  {
    goal: '步骤一：收集用户反馈；步骤二：归类问题；步骤三：输出改进建议',
    milestones: ['收集用户反馈', '归类问题', '输出改进建议'],
  },
  {
    goal: '首先下载财报，然后提取营收数据，最后生成对比图表',
    milestones: ['下载财报', '提取营收数据', '生成对比图表'],
  },
  {
    goal: '1. 搜索相关论文\n2. 阅读摘要\n3. 写一份不超过500字的综述',
    milestones: ['搜索相关论文', '阅读摘要', '写一份不超过500字的综述'],
    anchors: [[500, '字', 'atMost']],
  },
  {
    goal: '第一步，整理需求；第二步，设计接口；第三步，编写测试',
    milestones: ['整理需求', '设计接口', '编写测试'],
  },
  {
    goal: '调研2024年以后发布的大模型，至少覆盖8款模型',
    milestones: ['调研2024年以后发布的大模型，至少覆盖8款模型'],
    anchors: [[8, '模型', 'atLeast']],
    constraints: ['调研2024年以后发布的大模型'],
  },
  {
    goal: '从3个维度分析用户留存',
    milestones: ['从3个维度分析用户留存'],
    anchors: [[3, '维度', 'atLeast']],
  },
  {
    goal: '写一篇三千字的行业报告，引用十个以上数据源',
    milestones: ['写一篇三千字的行业报告，引用十个以上数据源'],
    anchors: [[3000, '字', 'atLeast'], [10, '数据源', 'atLeast']],
  },
  {
    goal: '在10轮以内完成问答，不要重复提问',
    milestones: ['在10轮以内完成问答，不要重复提问'],
    anchors: [[10, '轮', 'atMost']],
    constraints: ['不要重复提问'],
  },
  {
    goal: '整理客户名单。禁止导出手机号，只能使用内部系统。',
    milestones: ['整理客户名单'],
    constraints: ['禁止导出手机号', '只能使用内部系统'],
  },
  {
    goal: '- 拉取最新代码\n- 运行单元测试\n- 提交修复',
    milestones: ['拉取最新代码', '运行单元测试', '提交修复'],
  },
  {
    goal: '收集竞品价格 → 计算均价 → 输出表格',
    milestones: ['收集竞品价格', '计算均价', '输出表格'],
  },
  {
    goal: '①确定选题 ②检索资料 ③撰写初稿 ④校对',
    milestones: ['确定选题', '检索资料', '撰写初稿', '校对'],
  },
  {
    goal: '（1）登录后台（2）导出订单（3）统计退款率',
    milestones: ['登录后台', '导出订单', '统计退款率'],
  },
  {
    goal: '分析恰好5家公司的年报，每家列出大约3条风险',
    milestones: ['分析恰好5家公司的年报，每家列出大约3条风险'],
    anchors: [[5, '公司', 'exactly'], [3, '风险', 'atLeast']],
  },
  {
    goal: '生成一个报告',
    milestones: ['生成一个报告'],
  },
  {
    goal: '先阅读文档，接着编写示例代码，之后补充注释，最后提交评审',
    milestones: ['先阅读文档', '编写示例代码', '补充注释', '提交评审'],
  },
  {
    goal: '翻译这份说明书',
    milestones: ['翻译这份说明书'],
  },
  {
    goal: '分三步：1）爬取网页 2）抽取正文 3）去重入库',
    milestones: ['爬取网页', '抽取正文', '去重入库'],
  },
  {
    goal: '用不超过8轮对话收集需求，然后输出需求文档',
    milestones: ['用不超过8轮对话收集需求', '输出需求文档'],
    anchors: [[8, '对话', 'atMost']],
  },
  {
    goal: '撰写一份市场报告，必须至少覆盖5个竞品',
    milestones: ['撰写一份市场报告，必须至少覆盖5个竞品'],
    anchors: [[5, '竞品', 'atLeast']],
  },
  {
    goal: '生成至少3000字的报告，只使用公开数据，搜索工具最多调用10次',
    milestones: ['生成至少3000字的报告，只使用公开数据，搜索工具最多调用10次'],
    anchors: [[3000, '字', 'atLeast']],
    constraints: ['只使用公开数据', '搜索工具最多调用10次'],
  },
  {
    goal: '统计2023年之前的订单，输出不少于20条记录',
    milestones: ['统计2023年之前的订单，输出不少于20条记录'],
    anchors: [[20, '记录', 'atLeast']],
    constraints: ['统计2023年之前的订单'],
  },
];

describe('parseGoal on a table of English and Chinese goals', () => {
  it('has at least 40 rows, half of them Chinese', () => {
    expect(EN.length + ZH.length).toBeGreaterThanOrEqual(40);
    expect(ZH.length).toBeGreaterThanOrEqual(20);
  });

  it.each([...EN, ...ZH].map((row) => [row.goal, row] as const))('%s', (_goal, row) => {
    const parsed = parseGoal(row.goal);
    expect(parsed.milestones.map((m) => m.description)).toEqual(row.milestones);
    expect(parsed.anchors.map((a): AnchorRow => [a.target, a.unit, a.comparator])).toEqual(row.anchors ?? []);
    expect(parsed.constraints.map((c) => c.text)).toEqual(row.constraints ?? []);
    expect(parsed.constraints.map((c) => c.id)).toEqual((row.constraints ?? []).map((_c, i) => `c${i + 1}`));
  });
});
