export { BarChart, type BarChartProps } from './BarChart.tsx';
export { LineChart, type LineChartProps } from './LineChart.tsx';
export { DonutChart, PieChart, type PieChartProps, type PieSlice } from './PieChart.tsx';
export type { ChartSeries } from './parts.tsx';
